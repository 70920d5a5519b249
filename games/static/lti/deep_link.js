// Times are typed in the browser's own zone: the form says how far it is from UTC.
document.getElementById("tz-offset").value = String(new Date().getTimezoneOffset());

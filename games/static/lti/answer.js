// The signed answer goes back to the platform at once (the button is there without scripts).
document.getElementById("lti-answer").submit();

// Dynamic registration done: the platform that opened this page may close it.
(window.opener || window.parent).postMessage({ subject: "org.imsglobal.lti.close" }, "*");

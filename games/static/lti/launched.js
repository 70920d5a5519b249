// The launch's next step: outside a frame, straight on; inside the platform's frame (where
// the browser may keep the tool from its cookies), the button opens a new window instead.
const form = document.getElementById("lti-continue");
let framed = true;
try {
  framed = window.top !== window.self;
} catch {
  framed = true;
}
if (framed) {
  form.target = "_blank";
  document.getElementById("lti-framed").hidden = false;
} else {
  form.submit();
}

// The learner's seat of their game, kept where /play/ looks for it (play/seats.js), then on
// to the game.
import { keepSeat } from "../play/seats.js";

const seat = document.getElementById("lti-seat");
keepSeat(seat.dataset.game, seat.dataset.seat, seat.dataset.token);
window.location.replace(seat.dataset.path);

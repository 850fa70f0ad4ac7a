// willow verify --html: one hand and one step of it at a time. The page reads the same without
// this script (every hand and step shown in turn); it fetches nothing and reads no data.
(function () {
  "use strict";
  var root = document.documentElement;
  var hands = Array.prototype.slice.call(document.querySelectorAll("section.hand"));
  if (!hands.length) {
    return;
  }
  root.classList.remove("nojs");
  root.classList.add("js");
  var links = Array.prototype.slice.call(document.querySelectorAll(".handlist a"));
  var area = document.getElementById("hands");
  var current = 0;

  function steps(hand) {
    return hand.querySelectorAll(".step");
  }

  function showStep(hand, index) {
    var all = steps(hand);
    var i = Math.max(0, Math.min(all.length - 1, index));
    var tabs = hand.querySelectorAll(".steptabs button");
    for (var k = 0; k < all.length; k++) {
      all[k].classList.toggle("current", k === i);
      if (tabs[k]) {
        tabs[k].classList.toggle("current", k === i);
        tabs[k].setAttribute("aria-selected", k === i ? "true" : "false");
      }
    }
    hand.setAttribute("data-step", String(i));
  }

  function stepOf(hand) {
    return Number(hand.getAttribute("data-step") || "0");
  }

  function showHand(index, step, reveal) {
    current = Math.max(0, Math.min(hands.length - 1, index));
    for (var k = 0; k < hands.length; k++) {
      hands[k].classList.toggle("current", k === current);
    }
    for (var m = 0; m < links.length; m++) {
      links[m].classList.toggle("current", m === current);
    }
    var hand = hands[current];
    showStep(hand, step === "last" ? steps(hand).length - 1 : step);
    if (reveal) {
      // moved by a key or a button: the address names the hand shown, for a reload or a link
      if (history.replaceState) {
        history.replaceState(null, "", "#" + hand.id);
      }
      var box = area.getBoundingClientRect();
      if (box.top > window.innerHeight * 0.5 || box.bottom < 0) {
        area.scrollIntoView({ block: "start" });
      }
    }
  }

  // #hand-3 opens hand 3 at its deal; #hand-3-round-2 at its second round.
  function fromHash() {
    var match = /^#hand-(\d+)(?:-([a-z0-9-]+))?$/.exec(location.hash);
    if (!match) {
      return false;
    }
    for (var k = 0; k < hands.length; k++) {
      if (hands[k].getAttribute("data-hand") === match[1]) {
        var step = 0;
        var all = steps(hands[k]);
        for (var m = 0; m < all.length; m++) {
          if (all[m].getAttribute("data-key") === match[2]) {
            step = m;
          }
        }
        showHand(k, step, false);
        area.scrollIntoView({ block: "start" });
        return true;
      }
    }
    return false;
  }

  function move(delta) {
    var hand = hands[current];
    var i = stepOf(hand) + delta;
    if (i >= 0 && i < steps(hand).length) {
      showStep(hand, i);
    } else if (delta > 0 && current < hands.length - 1) {
      showHand(current + 1, 0, true);
    } else if (delta < 0 && current > 0) {
      showHand(current - 1, "last", true);
    }
  }

  hands.forEach(function (hand) {
    var tabs = hand.querySelectorAll(".steptabs button");
    Array.prototype.forEach.call(tabs, function (tab, k) {
      tab.addEventListener("click", function () {
        showStep(hand, k);
      });
    });
    Array.prototype.forEach.call(hand.querySelectorAll(".prev-step"), function (b) {
      b.addEventListener("click", function () {
        move(-1);
      });
    });
    Array.prototype.forEach.call(hand.querySelectorAll(".next-step"), function (b) {
      b.addEventListener("click", function () {
        move(1);
      });
    });
    showStep(hand, 0);
  });

  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) {
      return;
    }
    var target = e.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) {
      return;
    }
    if (e.key === "ArrowRight") {
      move(1);
    } else if (e.key === "ArrowLeft") {
      move(-1);
    } else if (e.key === "j") {
      showHand(current + 1, 0, true);
    } else if (e.key === "k") {
      showHand(current - 1, 0, true);
    } else {
      return;
    }
    e.preventDefault();
  });

  if (!fromHash()) {
    showHand(0, 0, false);
  }
})();

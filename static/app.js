// Gatehouse web UI: a few progressive enhancements. Every page works without
// this file; it only loads a file into a textarea, ticks tool checkboxes in
// bulk and copies a new token. It never inserts HTML: only text and values.
"use strict";

document.addEventListener("DOMContentLoaded", function () {
  // Load a server.json file into the textarea named by data-load-into.
  document.querySelectorAll("input[type=file][data-load-into]").forEach(function (input) {
    input.addEventListener("change", function () {
      var target = document.getElementById(input.getAttribute("data-load-into"));
      var file = input.files && input.files[0];
      if (!target || !file) { return; }
      if (file.size > 256 * 1024) { target.value = ""; alertText(input, "The file is larger than 256 KiB."); return; }
      file.text().then(function (text) { target.value = text; target.focus(); });
    });
  });

  // Bulk ticking of the tools to approve.
  document.querySelectorAll("button[data-check]").forEach(function (button) {
    button.addEventListener("click", function () {
      var mode = button.getAttribute("data-check");
      document.querySelectorAll("input.tool-pick").forEach(function (box) {
        var card = box.closest(".cap");
        var clean = card && card.classList.contains("sev-border-none");
        box.checked = mode === "all" || (mode === "clean" && clean);
      });
    });
  });

  // Copy a token shown once.
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field) { return; }
      field.select();
      if (navigator.clipboard) { navigator.clipboard.writeText(field.value); }
      button.textContent = "Copied";
    });
  });
});

function alertText(near, message) {
  var p = document.createElement("p");
  p.className = "field-errors";
  p.setAttribute("role", "alert");
  p.textContent = message;
  near.insertAdjacentElement("afterend", p);
}

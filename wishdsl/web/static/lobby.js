// The lobby's form: the variants and player counts of the chosen game.
"use strict";
(function () {
  const games = JSON.parse(document.getElementById("lobby").dataset.games);
  const game = document.getElementById("game");
  const variant = document.getElementById("variant");
  const players = document.getElementById("players");
  function chosen() { return games.find(g => g.key === game.value); }
  function fillVariants() {
    const g = chosen();
    variant.replaceChildren();
    const base = document.createElement("option");
    base.value = ""; base.textContent = "the base game";
    variant.appendChild(base);
    for (const v of (g ? g.variants : [])) {
      const o = document.createElement("option");
      o.value = v; o.textContent = v;
      variant.appendChild(o);
    }
    fitPlayers();
  }
  function fitPlayers() {
    const g = chosen();
    if (!g) return;
    const [lo, hi] = g.players[variant.value] || g.players[""];
    players.min = lo; players.max = hi;
    const n = Number(players.value);
    if (n < lo) players.value = lo;
    if (n > hi) players.value = hi;
  }
  const file = document.getElementById("upload-file");
  if (file) {
    file.addEventListener("change", () => {
      const f = file.files[0];
      if (!f) return;
      document.getElementById("upload-name").value = f.name.replace(/\.wish$/, "");
      f.text().then(t => { document.getElementById("upload-text").value = t; });
    });
  }
  game.addEventListener("change", fillVariants);
  variant.addEventListener("change", fitPlayers);
  fillVariants();
})();

// Roses: the board picture of a Kingmaker gazette edition (/games/{id}/gazette/{round}): the
// game's board (from /games/{id}/board.json) with the pieces of the observer's view
// at the end of the round, which the page carries. Read only: nothing to choose.

import { enablePanZoom } from "../js/mapkit.js";
import { Kingmaker } from "../js/games/kingmaker.js";

const cfg = JSON.parse(document.getElementById("config").textContent);
const svg = document.getElementById("map");
if (svg && cfg.board) {
  const q = cfg.invite ? `?invite=${encodeURIComponent(cfg.invite)}` : "";
  const res = await fetch(`/games/${encodeURIComponent(cfg.gameId)}/board.json${q}`);
  if (res.ok) {
    const board = await res.json();
    const game = new Kingmaker(board, {});
    game.drawBoard(svg);
    game.pan = enablePanZoom(svg, board, null);
    game.focused = true;
    game.draw({ ...cfg.board, role: null }, { choices: [] }, { status: "finished" });
    svg.dataset.drawn = "1";
  }
}

// Roses: the game modules the page knows, by game id (the rules' id, `config.game`).
//
// A module exports `async create(page)`, where `page` is {svg, holder, zoom, legend, onArea}
// (the map container's elements and the area click handler), and returns the game object
// the generic page layer (board.js) calls:
//
//   hasMap                       true when the module draws a board in the map container
//   choices(view)                [{verb, arg, kind: "card"|"area"|"block"|"button", ref, label}]
//   statusFacts(view)            [[term, text]] for the "Game" panel
//   renderCards(view, ui)        {played, hand} nodes for the "Cards" panel, or null
//   renderBattle(view, ui, payload)  nodes for the "Battle" panel, or null (hidden)
//   renderForces(view, ui)       nodes for the "Forces" panel
//   draw(view, ui, payload)      pieces on the map (when hasMap)
//   areaInfo(name, view)         nodes describing an area, or null
//
// Adding a game: write its module and name it in the game's rules (`client_module`: the page's
// config carries it as `client`). Games without a module get the generic one (buttons, log,
// the view's facts as text).

export async function gameModule(id, client = null) {
  return client ? import(client) : import("./generic.js");
}

"""Run the peer's random playouts (``../shared/bench/peer_playouts.js`` around Rally the Troops'
Plantagenet ``rules.js`` and ``data.js``) and add the CPU time the node process used, so that its
figure compares with ``roses bench``'s ``actions_per_cpu_s`` on a busy machine.

    python bench/plantagenet_peer.py PEER_DIR [SECONDS] [SCENARIO] [DRIVER]

``PEER_DIR`` holds the module's ``rules.js`` and ``data.js`` (bcurdy/RTT-Plantagenets at 020deaf);
``DRIVER`` is ``peer_playouts.js`` (default: ``../shared/bench/`` beside the repository).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

DRIVER = Path(__file__).resolve().parents[2] / "shared" / "bench" / "peer_playouts.js"


def main(peer_dir: str, seconds: str = "20", scenario: str = "Ia. Henry VI", driver: str = str(DRIVER)) -> None:
    out = subprocess.run(["node", str(Path(driver).resolve()), "rules.js", scenario, seconds, "1"], cwd=peer_dir,
                         capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    result.update(cpu_seconds=round(cpu, 3), actions_per_cpu_s=round(result["actions"] / cpu, 1),
                  actions_per_game=round(result["actions"] / max(result["games"], 1), 1))
    print(json.dumps(result))


if __name__ == "__main__":
    main(*sys.argv[1:5])

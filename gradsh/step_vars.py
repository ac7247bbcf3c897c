"""What each step of a run shows of the variables, so that output grows with the work done.

While a run has few variables (up to SHOW_ALL_UP_TO) every step shows all of them, as SPEC.md
describes; beyond, a step shows only the variables it changed, with a count of the others
(and, in the JSON trace, the names it deleted). `--changed-only` asks for that from the first
step; `--full` for every variable at every step, and every JSON value in full. A value over
snapshot.JSON_FULL_UP_TO elements is summarised in the JSON trace as PyTorch prints it, unless
`--full`. Unchanged variables cost little per step: their snapshots, table cells and JSON
entries are kept and reused (snapshot.StateCache).
"""

from __future__ import annotations

from typing import Any

from gradsh import snapshot
from gradsh.render import TABLE_ALL_ROWS_UP_TO, Renderer

SHOW_ALL_UP_TO = TABLE_ALL_ROWS_UP_TO
MODES = ("auto", "changed", "full")


class StepVars:
    """One run's view of its variables, step after step (`mode`: one of MODES)."""

    def __init__(self, mode: str = "auto") -> None:
        self.mode = mode
        self.cache = snapshot.StateCache()
        self._entries: dict[str, tuple[snapshot.VarState, dict[str, Any]]] = {}

    def states(self, env: dict[str, Any]) -> list[snapshot.VarState]:
        """Every variable's state now (unchanged small tensors keep their state object)."""
        states = snapshot.take(env, self.cache)
        self.cache.forget_others([s.name for s in states])
        return states

    def abridged(self, count: int) -> bool:
        """Whether a step with `count` variables shows only those it changed."""
        return self.mode == "changed" or (self.mode == "auto" and count > SHOW_ALL_UP_TO)

    def table(self, renderer: Renderer, env: dict[str, Any]) -> None:
        """The table after a step."""
        states = self.states(env)
        tensors = sum(isinstance(s, snapshot.TensorState) for s in states)
        renderer.table(states, changed_only=self.abridged(tensors))

    def json_fields(self, env: dict[str, Any]) -> dict[str, Any]:
        """The `vars` of a step's JSON object; when abridged, also `unchanged` (how many
        variables are not repeated) and `deleted` (the names gone since the last step)."""
        states = self.states(env)
        if self.mode == "full":  # nothing kept: the entries of large values are large
            return {"vars": {state.name: snapshot.json_state(state) for state in states}}
        entries: dict[str, tuple[snapshot.VarState, dict[str, Any]]] = {}
        changed: dict[str, dict[str, Any]] = {}
        for state in states:
            before = self._entries.get(state.name)
            if before is not None and before[0] is state:
                entry = before[1]
            else:
                entry = snapshot.json_state(state, summarise=True)
                if before is None or before[1] != entry:
                    changed[state.name] = entry
            entries[state.name] = (state, entry)
        deleted = [name for name in self._entries if name not in entries]
        self._entries = entries
        if not self.abridged(len(states)):
            return {"vars": {name: entry for name, (_, entry) in entries.items()}}
        return {"vars": changed, "unchanged": len(states) - len(changed), "deleted": deleted}

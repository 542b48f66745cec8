# SPDX-License-Identifier: GPL-2.0-or-later
"""What `make check` may start next, from what each step declares (its group's .mk file):

    CHECK_STEPS += test-x
    test-x.needs := renderer     steps that must have passed first (as CTest's FIXTURES_REQUIRED)
    test-x.holds := swiftpm      resources it holds alone while it runs (as CTest's RESOURCE_LOCK)
    test-x.uses  := obs-system   resources it shares with other users, never while one holds it
    test-x.cores := all          a build: it keeps every core busy (make -jN, N the machine's cores)
    test-x.minutes := 2          about how long it takes from a clean clone on 2 cores (as CTest's
                                 COST; left out: 1), the weight of its place in a chain

At most twice as many steps as the machine has cores run side by side: most of a test group's time
goes to waiting (on servers, browsers, OBS, deadlines), so two of them share a core well, and a build
step runs make -jN. No step's time is written down by a run: each step declares about how long
it takes (its minutes, read off a clean clone's table), and the next step is the ready one with the
longest chain of minutes from its start to the end of the steps waiting behind it, then the most steps waiting, then one that uses a resource
another step will hold (it runs before the holder shuts it out rather than after), then the order of
declaration. A ready step is not overtaken by one behind it when the machine is full, and a step
whose resources are taken is passed over; once a step that holds a resource is ready, no new user
of it starts unless its minutes end before those of the users already running (backfilling, as
batch schedulers do: the holder starts no later for it)."""
import os


class Step:
    def __init__(self, name, needs=(), holds=(), uses=(), cores="1", order=0, minutes=1.0):
        self.name, self.order, self.minutes = name, order, float(minutes)
        if not self.minutes > 0:
            raise ValueError(f"{name}.minutes is a number above 0, not {minutes!r}")
        self.needs, self.holds, self.uses = list(needs), list(holds), list(uses)
        self.builds = cores == "all"
        if not self.builds and cores != "1":
            raise ValueError(f"{name}.cores is 'all' (a build) or left out (a test group), not {cores!r}")
        self.chain, self.waiting, self.yields = 0, 0, False  # worked out by Plan

    @classmethod
    def parse(cls, spec, order):
        """NAME;needs=A B;holds=R;uses=R;cores=all;minutes=M (the Makefile's --step argument)."""
        name, *fields = spec.split(";")
        values = {}
        for field in fields:
            key, _, value = field.partition("=")
            if key not in ("needs", "holds", "uses", "cores", "minutes"):
                raise ValueError(f"step {name}: unknown field {key!r}")
            values[key] = value.split()
        try:
            minutes = float((values.get("minutes") or ["1"])[0])
        except ValueError:
            raise ValueError(f"{name}.minutes is a number, not {values['minutes'][0]!r}") from None
        return cls(name.strip(), values.get("needs", ()), values.get("holds", ()), values.get("uses", ()),
                   (values.get("cores") or ["1"])[0], order, minutes)


class Plan:
    def __init__(self, steps, cores=None):
        self.cores = cores or os.cpu_count() or 1
        self.capacity = 2 * self.cores  # steps side by side
        self.steps = {step.name: step for step in steps}
        if len(self.steps) != len(steps):
            raise ValueError("a step is declared twice")
        for step in steps:
            unknown = [need for need in step.needs if need not in self.steps]
            if unknown:
                raise ValueError(f"{step.name} needs {', '.join(unknown)}, which no .mk file declares a step")
            both = set(step.holds) & set(step.uses)
            if both:
                raise ValueError(f"{step.name} both holds and uses {', '.join(sorted(both))}")
        self.waiters = {name: [s for s in steps if name in s.needs] for name in self.steps}
        for step in steps:
            step.chain = self._chain(step, ())
            step.waiting = len(self._behind(step.name))
        held_by_some = {r for step in steps for r in step.holds}
        for step in steps:
            step.yields = any(r in held_by_some for r in step.uses)
        # A user of what another step holds, started before that holder, delays it as a step it
        # needs would: its chain goes on through the holder's.
        holders_chain = {r: max(s.chain for s in steps if r in s.holds) for r in held_by_some}
        for step in steps:
            step.chain += max((holders_chain[r] for r in step.uses if r in holders_chain), default=0)

    def _chain(self, step, path):
        if step.name in path:
            raise ValueError(f"steps need each other: {' → '.join(path + (step.name,))}")
        return step.minutes + max((self._chain(w, path + (step.name,)) for w in self.waiters[step.name]), default=0)

    def _behind(self, name):
        found = set()
        for waiter in self.waiters[name]:
            found |= {waiter.name} | self._behind(waiter.name)
        return found

    def ranked(self):
        return sorted(self.steps.values(), key=lambda s: (-s.chain, -s.waiting, not s.yields, s.order))

    def longest_chain(self, step):
        chain = [step]
        while self.waiters[chain[-1].name]:
            chain.append(max(self.waiters[chain[-1].name], key=lambda s: (s.chain, -s.order)))
        return [s.name for s in chain]

    def next_steps(self, passed, failed, running, now=None):
        """The steps to start now, given the names that passed, failed and are running (with the
        minute each started, and `now`, for backfilling); and the steps that will never run (a
        step they need failed or will never run)."""
        held = {r for name in running for r in self.steps[name].holds}
        used = {r for name in running for r in self.steps[name].uses}
        # When each resource is free again, by the running steps' declared minutes.
        free_at = {}
        if isinstance(running, dict) and now is not None:
            for name, began in running.items():
                step = self.steps[name]
                for r in step.holds + step.uses:
                    free_at[r] = max(free_at.get(r, now), began + step.minutes)
        load = len(running)
        start, skipped, ready = [], [], []
        for step in self.ranked():
            if step.name in passed or step.name in failed or step.name in running:
                continue
            if any(need in failed for need in step.needs):
                skipped.append(step)
            elif all(need in passed for need in step.needs):
                ready.append(step)
        # What a ready step would hold: no new user starts on it, so that the holder is next.
        wanted = {r for step in ready for r in step.holds}
        for step in ready:
            if any(r in held or r in used for r in step.holds) or any(r in held for r in step.uses):
                continue
            # A user does not start while a holder waits for what it uses, unless it will be done
            # before the users already running are (backfilling: the holder starts no later).
            if any(r in wanted and not (r in free_at and now + step.minutes <= free_at[r]) for r in step.uses):
                continue
            if load >= self.capacity:
                break  # no room: nothing behind it overtakes it
            start.append(step)
            load += 1
            held |= set(step.holds)
            used |= set(step.uses)
        return start, skipped

    def simulate(self):
        """The plan run with each step taking its declared minutes and no step slowing another:
        [(step, start, end)] in minutes, in the order they start."""
        clock, running, passed, ran = 0.0, {}, set(), []
        while True:
            start, _ = self.next_steps(passed, set(), dict(running), now=clock)
            for step in start:
                running[step.name] = clock
            if not running:
                break
            name = min(running, key=lambda n: (running[n] + self.steps[n].minutes, self.steps[n].order))
            began = running.pop(name)
            clock = began + self.steps[name].minutes
            ran.append((self.steps[name], began, clock))
            passed.add(name)
        if len(passed) < len(self.steps):
            raise ValueError("no step can start: " + ", ".join(sorted(set(self.steps) - passed)))
        return sorted(ran, key=lambda r: (r[1], r[0].order))

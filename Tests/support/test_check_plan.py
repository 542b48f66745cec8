# SPDX-License-Identifier: GPL-2.0-or-later
"""make check's plan (support/check_plan.py): what it starts, and the steps the Makefile declares,
run through the plan with made-up times (a step's needs passed before it, nothing beside a holder)."""
import os
import random
import shlex
import subprocess
import unittest

from support.check_plan import Plan, Step

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def declared_steps():
    """The --step arguments `make check-plan` would pass, read from make's dry run."""
    command = subprocess.run(["make", "-s", "-n", "--no-print-directory", "check-plan"], cwd=TOP, check=True,
                             capture_output=True, text=True).stdout
    words = shlex.split(command)
    return [words[i + 1] for i, word in enumerate(words) if word == "--step"]


def run(plan, seconds, fails=()):
    """Runs the plan as the runner does, with each step taking seconds[name]; returns (name, start,
    end) for the steps that ran and the names skipped."""
    clock, running, passed, failed, ran, skipped = 0.0, {}, set(), set(), [], []
    while True:
        start, skip = plan.next_steps(passed, failed, dict(running), now=clock)
        for step in skip:
            failed.add(step.name)
            skipped.append(step.name)
        for step in start:
            running[step.name] = clock
        if skip:
            continue
        if not running:
            return ran, skipped
        name = min(running, key=lambda n: running[n] + seconds[n])
        began = running.pop(name)
        clock = began + seconds[name]
        ran.append((name, began, clock))
        (failed if name in fails else passed).add(name)


class PlanTests(unittest.TestCase):
    def test_a_step_starts_after_what_it_needs_and_is_skipped_when_that_failed(self):
        plan = Plan([Step("build", cores="all"), Step("test-a", needs=["build"]), Step("test-b", needs=["test-a"])],
                    cores=2)
        ran, skipped = run(plan, {"build": 5, "test-a": 1, "test-b": 1})
        self.assertEqual([name for name, _, _ in ran], ["build", "test-a", "test-b"])
        self.assertEqual(ran[1][1], 5)
        ran, skipped = run(plan, {"build": 5, "test-a": 1, "test-b": 1}, fails={"build"})
        self.assertEqual(([name for name, _, _ in ran], skipped), (["build"], ["test-a", "test-b"]))

    def test_a_holder_runs_alone_and_no_new_user_starts_while_it_waits_unless_done_before(self):
        seconds = {"package": 1, "install": 3, "obs-1": 2, "obs-2": 4, "late": 1, "long": 3}
        plan = Plan([Step("package", minutes=1), Step("install", needs=["package"], holds=["system"], order=1, minutes=3),
                     Step("obs-1", uses=["system"], order=2, minutes=2), Step("obs-2", uses=["system"], order=3, minutes=4),
                     Step("late", needs=["obs-1"], uses=["system"], order=4, minutes=1),
                     Step("long", needs=["obs-1"], uses=["system"], order=5, minutes=3)], cores=2)
        ran, _ = run(plan, seconds)
        times = {name: (began, end) for name, began, end in ran}
        # The users start while the package is made, side by side. The install is ready at 1 and
        # waits for obs-2 (until 4). "late" and "long" are ready at 2: "late" is done by 3, before
        # obs-2, so it starts (the install starts no later); "long" would end at 5, so it waits.
        self.assertEqual(times["obs-1"], (0, 2))
        self.assertEqual(times["obs-2"], (0, 4))
        self.assertEqual(times["late"], (2, 3))
        self.assertEqual(times["install"], (4, 7))
        self.assertEqual(times["long"], (7, 10))

    def test_the_longest_chain_of_minutes_goes_first_and_a_user_carries_its_holders_chain(self):
        plan = Plan([Step("short-long", minutes=1), Step("after", needs=["short-long"], minutes=5, order=1),
                     Step("long", minutes=4, order=2), Step("user", uses=["system"], minutes=0.5, order=3),
                     Step("holder", holds=["system"], minutes=5, order=4)], cores=1)
        self.assertEqual([s.name for s in plan.ranked()], ["short-long", "user", "after", "holder", "long"])
        self.assertEqual(plan.steps["user"].chain, 5.5)
        with self.assertRaisesRegex(ValueError, "minutes is a number, not 'soon'"):
            Step.parse("test-a;minutes=soon", 0)
        with self.assertRaisesRegex(ValueError, "minutes is a number above 0"):
            Step.parse("test-a;minutes=0", 0)

    def test_at_most_twice_the_cores_side_by_side_and_the_longest_chain_first(self):
        steps = [Step(f"test-{n}", order=n) for n in range(6)] + [Step("build", order=6, cores="all"),
                                                                   Step("after", needs=["build"], order=7)]
        plan = Plan(steps, cores=2)
        start, _ = plan.next_steps(set(), set(), set())
        self.assertEqual([s.name for s in start], ["build", "test-0", "test-1", "test-2"])

    def test_declarations_that_cannot_run_are_refused_with_their_names(self):
        with self.assertRaisesRegex(ValueError, "test-a needs nothing-here"):
            Plan([Step("test-a", needs=["nothing-here"])])
        with self.assertRaisesRegex(ValueError, "steps need each other: a → b → a"):
            Plan([Step("a", needs=["b"]), Step("b", needs=["a"])])
        with self.assertRaisesRegex(ValueError, "unknown field 'need'"):
            Step.parse("test-a;need=renderer", 0)

    def test_the_declared_steps_keep_their_promises_whatever_each_takes(self):
        plan = Plan([Step.parse(spec, order) for order, spec in enumerate(declared_steps())], cores=2)
        holders = {name for name, step in plan.steps.items() if step.holds}
        self.assertIn("test-deb", holders)
        self.assertTrue({"test-real-obs-speech", "test-shim", "test-dock"} <= {
            name for name, step in plan.steps.items() if "obs-system" in step.uses})
        for seed in range(200):
            chance = random.Random(seed)
            seconds = {name: chance.uniform(1, 600) for name in plan.steps}
            ran, skipped = run(plan, seconds)
            self.assertEqual((len(ran), skipped), (len(plan.steps), []))
            times = {name: (began, end) for name, began, end in ran}
            for name, (began, end) in times.items():
                step = plan.steps[name]
                for need in step.needs:
                    self.assertLessEqual(times[need][1], began, f"{name} started before {need} passed")
                at_once = [other for other, (b, e) in times.items() if other != name and b < end and began < e]
                for other in at_once:
                    shared = set(step.holds) & (set(plan.steps[other].holds) | set(plan.steps[other].uses))
                    self.assertFalse(shared, f"{name} held {shared} while {other} ran (seed {seed})")
                self.assertLess(len([o for o in at_once if times[o][0] <= began < times[o][1]]), plan.capacity)


if __name__ == "__main__":
    unittest.main()

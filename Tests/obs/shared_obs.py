# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-OBS tests in one OBS: each test module names itself (NAME), says what OBS's environment
needs for it (`environment(work, cleanup, args)`: a dict, fakes it starts stop with `cleanup`) and
runs against the OBS (`run(obs, work, args, env, cleanup)`: checks through support.checks). Between
modules every input the previous one made is removed, so each starts from an empty scene.

    python3 -m obs.shared_obs --plugin SO --data DIR --renderer BIN [--helpers DIR] [--without MODULE] [MODULE...]
MODULEs (default: all of MODULES) are obs.obs_state_test, overlay.overlay_obs_test, speech.obs_speech_test,
memory.obs_memory_test, obs.obs_secrets_test, control.obs_control_test, obs.obs_looks_test.
A test module run as a script is this with itself alone. Prints "ok"/"FAIL" lines and
"N passed, M failed"; exits non-zero on a failure."""
import argparse
import importlib
import os
import shutil
import sys
import tempfile
import time
import traceback

from support import obs as real_obs, tls
from support.checks import check, finish
from support.processes import Cleanup

MODULES = ["obs.obs_state_test", "overlay.overlay_obs_test", "speech.obs_speech_test",
           "memory.obs_memory_test", "obs.obs_secrets_test", "control.obs_control_test", "obs.obs_looks_test"]


def main(modules=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    real_obs.add_arguments(parser)
    parser.add_argument("--helpers", help="the overlay helpers' folder (COMMENTBAR_OVERLAY_DIR)")
    parser.add_argument("--bench", help="the speech test's figures, as JSON, into this file")
    if modules is None:
        parser.add_argument("modules", nargs="*", default=MODULES)
        parser.add_argument("--without", action="append", default=[], metavar="MODULE",
                            help="leave out this one of the modules (make check runs it in an OBS of its own)")
    args = parser.parse_args()
    if modules is None:
        unknown = [name for name in args.without if name not in args.modules]
        if unknown:
            parser.error(f"--without names a module that is not run: {', '.join(unknown)}")
        modules = [importlib.import_module(name) for name in args.modules if name not in args.without]
    work = tempfile.mkdtemp(prefix="commentbar-real-obs.")
    try:
        with Cleanup() as cleanup:
            own_env = {}
            for module in modules:
                folder = os.path.join(work, module.__name__.rsplit(".", 1)[-1])
                os.makedirs(folder)
                own_env[module] = module.environment(folder, cleanup, args)
            # Two modules' fakes each route host names and trust their own CA: OBS's renderers get all.
            env = tls.merged_env(own_env.values(), os.path.join(work, "ca-bundle.pem"))
            started = time.monotonic()
            with real_obs.session(work, args.plugin, args.data, args.renderer, env) as obs:
                print(f"(OBS {obs.request('GetVersion').get('obsVersion')} up in {time.monotonic() - started:.1f} s)",
                      flush=True)
                for module in modules:
                    print(f"-- {module.NAME}", flush=True)
                    folder = os.path.join(work, module.__name__.rsplit(".", 1)[-1])
                    try:
                        module.run(obs, folder, args, own_env[module], cleanup)
                    except Exception as error:  # noqa: BLE001 - the next module still runs
                        traceback.print_exc()
                        check(False, f"{module.NAME}: ran to its end", repr(error))
                    finally:
                        obs.remove_inputs()
                    if obs.proc.poll() is not None:
                        check(False, "OBS is still running", f"exit status {obs.proc.returncode}")
                        break
    finally:
        if os.environ.get("COMMENTBAR_KEEP_WORK"):  # set: the OBS log and every file kept to read
            print(f"(work folder kept: {work})")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())

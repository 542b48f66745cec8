// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo

/// The renderer process's heap policy. glibc gives each thread its own malloc arena (up to
/// eight per core), and an arena keeps what was freed in it: the frame loop, which runs on
/// whichever of Swift's threads is free, spread its glyphs and rows over several arenas that
/// each held megabytes freed long ago. Two arenas are enough for one bar's few threads.
public enum RendererMemory {
    /// Called once, first thing in `serve`, before the feeds' and the frame loop's threads start.
    public static func configureProcess() {
        _ = mallopt(M_ARENA_MAX, 2)
    }
}

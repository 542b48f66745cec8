// SPDX-License-Identifier: GPL-2.0-or-later

extension ServeSession {
    /// How often the heartbeat beats: the shim restarts a renderer whose heartbeat stood still
    /// for 3 s (docs/pool-abi.md), so this leaves it six beats. The frame loop is not woken by
    /// it: only by events and by `redrawAlarm`.
    static let heartbeatInterval = Duration.milliseconds(500)

    /// Beats the heart while the frame loop is idle or at work on a wake-up for less than
    /// `stallLimit`: one slow frame (a huge image) is not a hang, but a loop stuck that long is,
    /// and then the beat stops.
    func beat(_ heartbeat: @Sendable () -> Void) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.heartbeatInterval)
            let busySince = shared.withLock { $0.frameLoopBusySince }
            if busySince.map({ ContinuousClock.now - $0 < stallLimit }) ?? true { heartbeat() }
        }
    }
}

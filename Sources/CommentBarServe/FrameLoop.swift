// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CommentBarCore
import CommentBarRender
import FoundationEssentials
import Glibc

extension ServeSession {
    /// Makes a frame when something visible changed, at most `fps` times a second (`FramePacer`:
    /// a frame wanted after a quiet moment goes out at once).
    func frameLoop() async {
        let clock = ContinuousClock()
        let heartbeat = sink.makeHeartbeat()
        var renderer: BarRenderer?
        var settingsRevision = -1
        var pacer = FramePacer(fps: 30)
        var preparedAt: UInt64 = .max
        /// The rows' revision whose change a published frame has carried to the pool (the latency probe).
        var stampedRevision: UInt64 = 0
        var lastStatus: (SinkStatus, String)?
        var emotesWantedFor: EmoteRows.Key?
        var cpu = FrameLoopCPU(isOn: getenv("COMMENTBAR_CPU_TRACE") != nil)
        for await _ in wake {
            heartbeat()
            defer { shared.withLock { $0.frameLoopBusySince = nil } }
            let now = flowAlarm.now
            let snapshot = cpu.measure(.release) {
                let (snapshot, nextComment, released) = shared.withLock { shared in
                    shared.frameLoopBusySince = clock.now
                    // Comments that came due (the alarm rang, or any other wake-up) are shown now.
                    let heard = shared.apply(shared.flow.release(now: now), now: now)
                    shared.state.expirePin(now: WallClock.now())
                    return (shared, shared.flow.nextDue, heard)
                }
                flowAlarm.set(nextComment)
                tell(released)
                return snapshot
            }
            for part in parts { part.barUpdated(snapshot.state) }
            let status = Self.sinkStatus(snapshot.active ? snapshot.state.status : .paused)
            if lastStatus?.0 != status.0 || lastStatus?.1 != status.1 {
                sink.setStatus(status.0, detail: status.1)
                lastStatus = status
            }
            guard snapshot.active else { continue }
            if snapshot.settingsRevision != settingsRevision {
                if let renderer {
                    renderer.update(settings: snapshot.settings)
                } else {
                    renderer = BarRenderer(settings: snapshot.settings, width: sink.width, height: sink.height,
                                           remoteImages: images.store, emotes: emotes.store)
                }
                settingsRevision = snapshot.settingsRevision
                preparedAt = .max  // the rows' style may have changed: they are laid out again
            }
            guard let renderer else { continue }
            // The streamer's own files win; a feed's https images are fetched off this loop.
            images.want(snapshot.settings.avatarPath.isEmpty ? snapshot.state.avatar : nil, for: .avatar)
            images.want(snapshot.settings.backgroundPath.isEmpty ? snapshot.state.background : nil, for: .background)
            let emoteRows = EmoteRows.key(of: snapshot.state)
            if emoteRows != emotesWantedFor {
                emotes.want(EmoteRows.rows(of: snapshot.state))
                emotesWantedFor = emoteRows
            }
            if snapshot.state.linesRevision != preparedAt {
                // New rows are laid out now, not when their frame is due.
                cpu.laidOut(rows: cpu.measure(.layout) { renderer.prepare(snapshot.state) })
                preparedAt = snapshot.state.linesRevision
            }
            if pacer.fps != max(snapshot.settings.maxFPS, 1) { pacer = FramePacer(fps: snapshot.settings.maxFPS) }
            let wait = pacer.earliest(now: flowAlarm.now) - flowAlarm.now
            if wait > 0 { try? await clock.sleep(for: .nanoseconds(Int64(wait * 1e9))) }
            let latest = shared.withLock { $0 }
            let unixNow = WallClock.now()
            let notice = self.notice
            if latest.state.linesRevision != stampedRevision { sink.stampRowChange(at: latest.rowsChangedAt) }
            if cpu.measure(.frame, { renderer.render(latest.state, obs: latest.obs, notice: notice, now: unixNow, into: sink) }) {
                cpu.madeFrame()
                let published = flowAlarm.now
                pacer.made(at: published)
                for part in parts { part.framePublished() }
                traceLatency(shown: latest.state.linesRevision, at: published)
                stampedRevision = latest.state.linesRevision
            }
            // The renderer's own motion (a row entering or fading, the ticker, a fade still to
            // come) is due when it says, so a row fades out on time with no event to wake the loop.
            // Not before the pacer lets that frame out: an alarm rung sooner is followed by a sleep
            // until it may (a dispatch timer, two more threads woken), which the ticker at 30 fps
            // met on most frames (its step and the pacer's one-second window part by microseconds).
            if let due = NextRedraw.after(unixNow, state: latest.state, obs: latest.obs, settings: latest.settings,
                                          rendererDue: renderer.nextChange(after: unixNow)) {
                let flowNow = flowAlarm.now
                redrawAlarm.set(redrawAlarm.now + max(due - WallClock.now(), pacer.earliest(now: flowNow) - flowNow, 0))
            }
            if let line = cpu.lineIfDue() { log.info("\(line)") }
        }
    }

    /// With `COMMENTBAR_LATENCY_TRACE` set: how long the rows this frame shows waited for it.
    private func traceLatency(shown revision: UInt64, at time: Double) {
        guard let waits = shared.withLock({ $0.latency?.published(revision: revision, at: time) }),
              let oldest = waits.first else { return }
        log.info("latency: rows shown after \(Double(Int((oldest * 1e6).rounded())) / 1000) ms (\(waits.count) changes)")
    }

    /// The state, and only what the state's name does not already say.
    static func sinkStatus(_ status: FeedStatus) -> (SinkStatus, String) {
        switch status {
        case .connecting: return (.connecting, "")
        case .live: return (.live, "")
        case .reconnecting(let reason): return (.reconnecting, reason)
        case .error(let message): return (.error, message)
        case .paused: return (.paused, "")
        case .waiting(let reason): return (.waiting, reason)
        case .ended(let reason): return (.ended, reason)
        }
    }
}

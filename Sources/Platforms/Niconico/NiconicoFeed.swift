// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarSupport
import Logging

/// The `niconico` feed: reads the programme's watch page, and while it is on air holds a
/// seat and reads its comments; before, after and between programmes it says why not and
/// checks the page again (a community, channel or user page names its next programme).
struct NiconicoFeed: CommentFeed {
    let streamID: NiconicoStreamID
    /// The site root the watch pages come from (`https://live.nicovideo.jp`, or the `server`
    /// setting), and the web every request of the feed goes through.
    let site: WebAPI

    static let pageLimits = WebLimits(maxBytes: 4 << 20, timeout: .seconds(20))
    /// How often a page that is not (or no longer) on air is checked again.
    static let recheckInterval = 30.0
    static let slowDownInterval = 60.0

    static let notStarted = "配信前 / not started yet"
    static let ended = "放送終了 / programme ended"
    static let notFound = "番組が見つかりません / no such programme"
    static let cannotWatch = "視聴できません（メンバー限定など） / cannot watch (members-only or login required)"

    var watchURL: String { "\(site.base)/watch/\(streamID.watchPath)" }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let problems = InputProblemLog(source: "niconico \(streamID.watchPath)")
        var backoff = Backoff()
        func nextDelay() -> Double { backoff.nextDelay() / .seconds(1) }
        emit(.status(.connecting))
        while !Task.isCancelled {
            let wait: Double
            switch await loadPage() {
            case .success(let page):
                switch page.state {
                case .notStarted:
                    emit(.status(.waiting(reason: Self.notStarted)))
                    wait = Self.recheckInterval
                case .ended:
                    emit(.status(.ended(reason: Self.ended)))
                    if streamID.kind == .programme { return await sleepUntilCancelled() }
                    wait = Self.recheckInterval
                case .other(let status):
                    emit(.status(.error(message: "番組の状態が不明です / unknown programme status \(SeatMessages.shown(status))")))
                    wait = Self.recheckInterval
                case .onAir where page.webSocketURL.isEmpty:
                    emit(.status(.error(message: Self.cannotWatch)))
                    wait = Self.recheckInterval
                case .onAir:
                    // Every programme of one broadcaster is one channel to the viewer memory.
                    if let broadcaster = page.broadcaster { emit(.channel(id: broadcaster)) }
                    if let begin = page.beginTime { emit(.start(time: begin)) }
                    let started = ContinuousClock.now
                    let end = await SeatSession(webSocketURL: page.webSocketURL, site: site, problems: problems, emit: emit).run()
                    if Task.isCancelled { return }
                    if ContinuousClock.now - started >= .seconds(10) { backoff.reset() }
                    switch end {
                    case .programmeEnded:
                        emit(.status(.ended(reason: Self.ended)))
                        if streamID.kind == .programme { return await sleepUntilCancelled() }
                        wait = Self.recheckInterval
                    case .lost(let reason):
                        wait = nextDelay()
                        emit(.status(.reconnecting(reason: "\(reason); retrying in \(seconds(wait))")))
                    case .refused(let code):
                        wait = max(nextDelay(), Self.recheckInterval)
                        emit(.status(.error(message: "\(refusal(code)); retrying in \(seconds(wait))")))
                    }
                }
            case .failure(.notFound):
                emit(.status(.error(message: Self.notFound)))
                wait = Self.recheckInterval
            case .failure(.slowDown):
                wait = max(nextDelay(), Self.slowDownInterval)
                emit(.status(.reconnecting(reason: "the site asks to slow down (HTTP 429); retrying in \(seconds(wait))")))
            case .failure(.unusable(let reason)):
                problems.note(reason)
                wait = nextDelay()
                emit(.status(.error(message: "\(reason); retrying in \(seconds(wait))")))
            case .failure(.unreachable(let reason)):
                wait = nextDelay()
                emit(.status(.reconnecting(reason: "\(reason); retrying in \(seconds(wait))")))
            }
            do { try await Task.sleep(for: .milliseconds(Int(max(wait, 1) * 1000))) } catch { return }
        }
    }

    enum PageFailure: Error {
        case notFound
        case slowDown
        /// The page came but says nothing usable.
        case unusable(String)
        case unreachable(String)
    }

    private func loadPage() async -> Result<WatchPage, PageFailure> {
        let html: [UInt8]
        do {
            html = try await site.get(watchURL, limits: Self.pageLimits, accept: "text/html")
        } catch {
            switch error.status {
            case 404?, 410?: return .failure(.notFound)
            case 429?: return .failure(.slowDown)
            default: return .failure(.unreachable(error.description))
            }
        }
        do {
            return .success(try WatchPage.parse(html: html))
        } catch {
            return .failure(.unusable(error.description))
        }
    }

    private func refusal(_ code: String) -> String {
        switch code {
        case "NO_PERMISSION", "NOT_PERMITTED": return Self.cannotWatch
        case "NOT_ON_AIR", "CONTENT_NOT_READY": return Self.notStarted
        case "BROADCAST_NOT_FOUND", "PROGRAM_NOT_FOUND": return Self.notFound
        default: return "the seat was refused (\(code.isEmpty ? "no reason" : code))"
        }
    }

    private func seconds(_ value: Double) -> String {
        value < 10 ? "\(Double(Int(value * 10)) / 10) s" : "\(Int(value)) s"
    }

    /// A single programme that has ended stays ended: nothing more to read or check.
    private func sleepUntilCancelled() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(3600)) } catch { return }
        }
    }
}

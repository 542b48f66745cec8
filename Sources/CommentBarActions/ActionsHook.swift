// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import CommentBarSupport
import Logging
import Synchronization

/// What `serve` holds of Streamer.bot's and Cuebot's actions (issue 39): it follows the settings
/// (`actions_target`, `actions`, `actions_per_second`, the saved `actions_password`), matches each
/// row the bar applied against the rules, and hands what matched to one sending task, never
/// waiting: a burst above a rule's rate is counted (by rule) and not sent, a queue that fills
/// while the target is down loses a `comment` action first. A target that cannot be reached is one
/// line on the bar's status and one in the log (`problems`), tried again with the one `Backoff`;
/// the bar never waits for it. Its links come from `links` (the real ones, or a test's).
public final class ActionsHook: Sendable {
    private let log: Logger
    /// The bar's status line for actions (a bad setting, a target down), logged once per text.
    public let problems: ProblemReporter
    private let retry: Backoff
    private let links: any ActionLinkMaker
    private let state = Mutex(State())
    /// A burst's refused actions: logged at most once a minute per rule, with the count.
    private let overLimitLog = LogThrottle(interval: .seconds(60))

    /// Waiting actions at most: at 5 a second, ten seconds of them.
    static let queueLimit = 50

    private struct State {
        /// What the settings asked for last (a new one restarts the sender).
        var key: Key?
        var matcher = ActionMatcher(rules: [], filters: .none, welcomeBackDays: 0)
        var budgets = ActionBudgets(perSecond: 1)
        var sender: Sender?
        var settingsProblem: String?
        var linkProblem: String?
        /// Actions handed to the sender so far, and refused for the rate, by rule label (tests, the log).
        var queued = 0
        var overLimit: [String: Int] = [:]
    }

    private struct Key: Equatable {
        var target: String
        var password: String?
    }

    /// The task sending one target's actions, its queue and its link.
    private struct Sender {
        var queue: ActionQueue
        var link: any ActionLink
        var task: Task<Void, Never>
    }

    /// `changed`: the status line's text changed (the frame loop looks at `problems.current`);
    /// `retry`: the waits between tries while the target cannot be reached.
    public convenience init(log: Logger, retry: Backoff = Backoff(base: .seconds(1), cap: .seconds(30)),
                            changed: @escaping @Sendable () -> Void = {}) {
        self.init(log: log, retry: retry, links: ActionLinks(), changed: changed)
    }

    /// `links` makes the link to each target (a test passes its own).
    init(log: Logger, retry: Backoff, links: any ActionLinkMaker, changed: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.retry = retry
        self.links = links
        problems = ProblemReporter(log: log, level: .warning, changed: changed)
    }

    /// The source's settings (with their credentials): rules and rate at once; a new target or
    /// password starts a new sender.
    public func configure(_ settings: BarSettings) {
        let (parsed, ruleProblems) = ActionRule.parse(settings.actions)
        let matcher = ActionMatcher(rules: parsed, filters: settings.filters, welcomeBackDays: settings.welcomeBackDays)
        var targetProblem: String?
        var target: ActionTarget?
        do {
            target = try ActionTarget.parse(settings.actionsTarget)
        } catch {
            targetProblem = error.description
        }
        if target == nil, targetProblem == nil, !parsed.isEmpty {
            targetProblem = "actions: rules but no address to send them to (Streamer.bot / Cuebot actions → Where to send actions)"
        }
        let key = Key(target: target?.identity ?? "", password: settings.credentials[BarSettings.SecretKeys.actionsPassword.rawValue])
        let (changed, old) = state.withLock { state -> (Bool, Sender?) in
            state.matcher = target == nil ? ActionMatcher(rules: [], filters: .none, welcomeBackDays: 0) : matcher
            state.budgets.perSecond = settings.actionsPerSecond
            state.budgets.keep(parsed)
            state.settingsProblem = targetProblem ?? ruleProblems.first
            guard state.key != key else { return (false, nil) }
            state.key = key
            state.linkProblem = nil
            defer { state.sender = target.map { startSender($0, password: key.password) } }
            return (true, state.sender)
        }
        if let old {
            // What waited for the old target goes to the new one (a fixed address, a new password),
            // but not the action the old one already has and has not answered yet (its answer is
            // read with the next hand-over): the same Streamer.bot under a new password would run it twice.
            let written = old.link.awaitingAnswer
            let left = old.queue.close()
            old.task.cancel()
            old.link.othersWaiting()
            if let queue = state.withLock({ $0.sender?.queue }) {
                for action in written ? Array(left.dropFirst()) : left { queue.push(action) }
            }
        }
        if changed {
            problems.forgetLogged()
            for problem in ruleProblems.dropFirst() { log.warning("\(problem)") }
            if let target { log.info("actions: to \(target), \(parsed.count) rule\(parsed.count == 1 ? "" : "s")") }
        }
        show()
    }

    /// A comment or gift the bar applied: `shown` as the bar shows it (nil: filtered out),
    /// `original` as the feed gave it. Returns at once.
    public func heard(shown: ActionRow?, original: ActionRow) {
        let matcher = state.withLock { $0.matcher }
        guard !matcher.isEmpty else { return }
        enqueue(matcher.actions(shown: shown, original: original))
    }

    /// The audience's poll, queue or giveaway did something (issue 48). Returns at once.
    public func audience(_ happening: AudienceHappening) {
        let matcher = state.withLock { $0.matcher }
        guard !matcher.isEmpty else { return }
        enqueue(matcher.actions(happening))
    }

    /// A row was newly pinned to the bar.
    public func pinned(_ row: ActionRow) {
        let matcher = state.withLock { $0.matcher }
        guard matcher.hasPinRules else { return }
        enqueue(matcher.actions(pinned: row))
    }

    private func enqueue(_ actions: [MatchedAction]) {
        guard !actions.isEmpty else { return }
        let (admitted, sender, refused, limit) = state.withLock { state -> ([MatchedAction], Sender?, [String: Int], Int) in
            let admitted = actions.filter { state.budgets.admit($0.rule) }
            state.queued += admitted.count
            // Each rule refused now, with its total so far.
            var refused: [String: Int] = [:]
            for (label, count) in state.budgets.takeRefused() {
                state.overLimit[label, default: 0] += count
                refused[label] = state.overLimit[label]
            }
            return (admitted, state.sender, refused, state.budgets.perSecond)
        }
        if let sender, admitted.map(sender.queue.push).contains(true) {
            // Queued behind another: that one's answer is read now, with this hand-over's wake.
            sender.link.othersWaiting()
        }
        for (label, total) in refused.sorted(by: { $0.key < $1.key }) where overLimitLog.admit(label) != nil {
            log.warning("actions: the rule \(String(reflecting: label)) ran more than \(limit) a second (actions_per_second): \(total) not sent so far")
        }
    }

    /// Actions queued for sending, and refused for the rate by rule label, since the hook was made (tests).
    var counts: (queued: Int, overLimit: [String: Int]) { state.withLock { ($0.queued, $0.overLimit) } }

    /// Stops the sender (the session ends).
    public func stop() async {
        let sender = state.withLock { state -> Sender? in
            defer {
                state.sender = nil
                state.key = nil
            }
            return state.sender
        }
        sender?.queue.close()
        sender?.task.cancel()
        sender?.link.othersWaiting()
        await sender?.task.value
    }

    private func show() {
        let text = state.withLock { $0.settingsProblem ?? $0.linkProblem }
        problems.report(text)
    }

    private func linkProblem(_ text: String?) {
        state.withLock { $0.linkProblem = text }
        show()
    }

    private func startSender(_ target: ActionTarget, password: String?) -> Sender {
        let queue = ActionQueue(limit: Self.queueLimit)
        let home = NetworkLoop.executor
        let link = links.link(to: target, password: password, on: home.loop)
        let task = Task(executorPreference: home) { [self] in await send(queue, over: link, to: target) }
        return Sender(queue: queue, link: link, task: task)
    }

    /// The sender: one action at a time, in order; a target that cannot be reached is tried again
    /// after the backoff with the same action, one that answers no skips it. An action leaves the
    /// queue only once sent or refused, so a new target (`configure`) gets the one being tried too.
    /// It runs on the link's event loop (`EventLoopTaskExecutor`), the link's connection's thread.
    private func send(_ queue: ActionQueue, over link: any ActionLink, to target: ActionTarget) async {
        var backoff = retry
        var down: String?
        while let taken = await queue.next() {
            while !Task.isCancelled {
                do {
                    // More wait behind it (a burst, a backlog from while the target was down, what a
                    // new target took over): its answer is read at once, not after the settle time.
                    if queue.count > 1 { link.othersWaiting() }
                    try await link.send(taken.action.request)
                    if down != nil {
                        log.info("actions: \(target) reached again")
                        logDropped(queue.takeDropped())
                        problems.forgetLogged()
                    }
                    down = nil
                    backoff.reset()
                    linkProblem(nil)
                    queue.finished(taken)
                    break
                } catch {
                    if error.answered {
                        linkProblem("actions: \(error.description)")
                        queue.finished(taken)
                        break
                    }
                    // One text while it stays down: one status line, one log line.
                    let text = down ?? "actions: \(error.description); trying again"
                    down = text
                    linkProblem(text)
                    await link.reset()
                    do { try await Task.sleep(for: backoff.nextDelay()) } catch { break }
                }
            }
            if Task.isCancelled { break }
        }
        await link.reset()
    }

    /// What the full queue dropped while the target was down, by rule.
    private func logDropped(_ dropped: [String: Int]) {
        guard !dropped.isEmpty else { return }
        let byRule = dropped.sorted { $0.key < $1.key }.map { "\(String(reflecting: $0.key)) \($0.value)" }
        log.warning("actions: waited too long while it was down and were not sent: \(byRule.joined(separator: ", "))")
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later

/// The poll commands (`POST /api/poll`, `POST /api/poll/close`, `POST /api/poll/dismiss`, `GET /api/poll`).
extension ControlRoutes {
    func startPoll(_ call: ControlCall) -> ControlResponse {
        guard let request: PollStart = decode(call) else {
            return .error(.badRequest, "send {\"question\": …, \"options\": [2 to 9 answers]} and if you like \"seconds\", "
                          + "\"revote\" (\"first\" or \"latest\"), \"bare_numbers\"")
        }
        switch backend.startPoll(request) {
        case .started(let poll):
            log.info("control: poll started, \(poll.options.count) options\(poll.closesAt == nil ? "" : ", timed")")
            return .json(poll)
        case .refused(let why):
            return .error(.badRequest, why)
        }
    }

    func closePoll() -> ControlResponse {
        guard let poll = backend.closePoll() else { return .error(.notFound, "no poll is open") }
        log.info("control: poll closed, \(poll.voters) voters")
        return .json(poll)
    }

    func dismissPoll() -> ControlResponse {
        guard backend.dismissPoll() else { return .error(.notFound, "no closed poll is on the bar (close an open one first)") }
        return .json(Done())
    }

    func currentPoll() -> ControlResponse {
        guard let poll = backend.currentPoll() else { return .error(.notFound, "no poll has been started") }
        return .json(poll)
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later

/// The giveaway commands (`POST /api/giveaway`, `POST /api/giveaway/draw`,
/// `POST /api/giveaway/dismiss`, `GET /api/giveaway`).
extension ControlRoutes {
    struct Winner: Codable {
        var winner: ControlGiveaway.Viewer
    }

    func startGiveaway(_ call: ControlCall) -> ControlResponse {
        guard let request: GiveawayStart = decode(call) else {
            return .error(.badRequest, "send {\"word\": …} and if you like \"seconds\", \"min_comments\", \"first_time\"")
        }
        switch backend.startGiveaway(request) {
        case .started(let giveaway):
            log.info("control: giveaway started")
            return .json(giveaway)
        case .refused(let why):
            return .error(.badRequest, why)
        }
    }

    func drawGiveaway() -> ControlResponse {
        guard let winner = backend.drawGiveaway() else {
            return .error(.notFound, "no giveaway, or nobody left to draw")
        }
        log.info("control: giveaway drawn")
        return .json(Winner(winner: winner))
    }

    func dismissGiveaway() -> ControlResponse {
        guard backend.dismissGiveaway() else { return .error(.notFound, "no giveaway winner is on the bar") }
        return .json(Done())
    }

    func currentGiveaway() -> ControlResponse {
        guard let giveaway = backend.currentGiveaway() else { return .error(.notFound, "no giveaway has been started") }
        return .json(giveaway)
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The commands (`POST`, JSON bodies): pin, unpin, a viewer's choices, speech.
extension ControlRoutes {
    struct PinRequest: Codable {
        var id: String?
    }

    struct PauseRequest: Codable {
        var paused: Bool?
    }

    struct Done: Codable {
        var ok = true
        var id: String?
        var until: Double?
        var paused: Bool?
    }

    func pin(_ call: ControlCall) async -> ControlResponse {
        guard let request: PinRequest = decode(call), let id = request.id, !id.isEmpty else {
            return .error(.badRequest, "send {\"id\": …}: the id of a comment the event API gave")
        }
        guard let line = try? await hub.run({ $0.line(id: id) }) else {
            return .error(.notFound, "no comment \(id) among the newest \(EventHub.recentLimit)")
        }
        let until = backend.pin(line)
        log.info("control: pinned \(id)")
        return .json(Done(id: id, until: until))
    }

    func unpin(_ call: ControlCall) -> ControlResponse {
        guard let request = decode(call, empty: PinRequest()) else {
            return .error(.badRequest, "send {} or {\"id\": …}")
        }
        guard backend.unpin(id: request.id) else { return .error(.notFound, "that comment is not pinned") }
        log.info("control: unpinned")
        return .json(Done(id: request.id))
    }

    func viewer(_ call: ControlCall) async -> ControlResponse {
        guard let choice: ViewerChoice = decode(call) else {
            return .error(.badRequest, "send {\"platform\", \"channel\", \"user\"} and any of nickname, colour, voice, hidden")
        }
        if let problem = choice.problem { return .error(.badRequest, problem) }
        log.info("control: viewer \(choice.platform)/\(choice.channel)/\(choice.user):\(Self.describe(choice))")
        switch await backend.setViewer(choice) {
        case .saved:
            return .json(Done())
        case .unavailable(let why):
            return .error(.serviceUnavailable, why)
        }
    }

    func skipSpeech() -> ControlResponse {
        backend.skipSpeech()
        hub.execute { $0.publish(.speech(.init(action: "skip"))) }
        return .json(Done())
    }

    func pauseSpeech(_ call: ControlCall) -> ControlResponse {
        guard let request = decode(call, empty: PauseRequest()) else {
            return .error(.badRequest, "send {\"paused\": true|false}, or {} to toggle")
        }
        let paused = backend.pauseSpeech(request.paused)
        hub.execute { $0.publish(.speech(.init(action: paused ? "pause" : "resume"))) }
        return .json(Done(paused: paused))
    }

    /// What a viewer choice changes, for the log.
    static func describe(_ choice: ViewerChoice) -> String {
        var parts: [String] = []
        if let nickname = choice.nickname { parts.append(" nickname \"\(nickname)\"") }
        if let colour = choice.colour { parts.append(" colour \(colour.isEmpty ? "(none)" : colour)") }
        if let voice = choice.voice { parts.append(" voice \(voice.isEmpty ? "(none)" : String(reflecting: voice))") }
        if let hidden = choice.hidden { parts.append(hidden ? " hidden" : " shown") }
        return parts.joined(separator: ",")
    }

    /// The body as `Value`; an empty body is `empty` (nil: refused).
    func decode<Value: Decodable>(_ call: ControlCall, empty: Value? = nil) -> Value? {
        let body = Array(call.request.body.readableBytesView)
        if body.isEmpty { return empty }
        return try? JSONDecoder().decode(Value.self, from: Data(body))
    }
}

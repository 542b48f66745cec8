// SPDX-License-Identifier: GPL-2.0-or-later

/// The queue commands (`GET /api/queue`, `POST /api/queue/open`, `/close`, `/next`, `/done`,
/// `/remove`).
extension ControlRoutes {
    struct QueueCount: Codable {
        var count: Int?
    }

    struct Called: Codable {
        var called: [ControlQueue.Entry]
    }

    func openQueue(_ call: ControlCall) -> ControlResponse {
        guard let request = decode(call, empty: QueueOpen()) else {
            return .error(.badRequest, "send {} or any of \"capacity\" (1 to 500), \"first_time_first\", \"min_streams\" "
                          + "(0 to 1000), \"members_only\" (true or false), \"join\" and \"leave\" (lists of words)")
        }
        if let capacity = request.capacity, !(1...500).contains(capacity) { return .error(.badRequest, "capacity is 1 to 500") }
        if let streams = request.minStreams, !QueueOpen.minStreamsRange.contains(streams) {
            return .error(.badRequest, "min_streams is 0 to 1000: the earlier streams a regular was seen on")
        }
        switch backend.openQueue(request) {
        case .opened(let queue):
            log.info("control: queue open, capacity \(queue.capacity)")
            return .json(queue)
        case .refused(let why):
            return .error(.badRequest, why)
        }
    }

    func closeQueue() -> ControlResponse {
        guard backend.closeQueue() else { return .error(.notFound, "the queue is not open") }
        log.info("control: queue closed")
        return .json(Done())
    }

    func currentQueue() -> ControlResponse {
        .json(backend.currentQueue() ?? ControlQueue.closed)
    }

    func nextInQueue(_ call: ControlCall) -> ControlResponse {
        guard let request = decode(call, empty: QueueCount()), (1...50).contains(request.count ?? 1) else {
            return .error(.badRequest, "send {} or {\"count\": 1 to 50}")
        }
        guard let called = backend.nextInQueue(request.count ?? 1) else { return .error(.notFound, "the queue is not open") }
        return .json(Called(called: called))
    }

    func queueDone() -> ControlResponse {
        guard backend.queueDone() else { return .error(.notFound, "the queue is not open") }
        return .json(Done())
    }

    func removeFromQueue(_ call: ControlCall) -> ControlResponse {
        guard let viewer: QueueViewer = decode(call) else {
            return .error(.badRequest, "send {\"platform\", \"channel\", \"user\"} as the events name the viewer")
        }
        guard backend.removeFromQueue(viewer) else { return .error(.notFound, "that viewer is not in the queue") }
        return .json(Done())
    }

    func moveInQueue(_ call: ControlCall) -> ControlResponse {
        // A place past the end is the last one: only a place before the first is refused.
        guard let viewer: QueueViewer = decode(call), let place: QueuePlace = decode(call), place.place >= 1 else {
            return .error(.badRequest, "send {\"platform\", \"channel\", \"user\", \"place\": 1 or more} as the events name the viewer")
        }
        guard let queue = backend.moveInQueue(viewer, to: place.place) else { return .error(.notFound, "that viewer is not waiting in the queue") }
        return .json(queue)
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The feeds a bar's settings name: the `feeds` list (URLs or `service:id`), or the
/// older single `service`/`stream_id`/`server`. Each stream becomes a feed; one that
/// cannot (an unknown URL, a bad id, a service this build lacks) becomes a feed that
/// only reports its error, so it shows on the bar while the others run.
public struct StreamPlan: Sendable {
    public struct Stream: Sendable {
        /// How the bar names it: the service's name, numbered when a service is there twice.
        public var name: String
        public var service: String
        /// The mark of its rows when the bar reads several streams.
        public var badge: PlatformBadge
        /// The badges that mark its members (`ServiceDescription.memberBadges`).
        public var memberBadges: Set<String>? = nil
        public var feed: any CommentFeed
        /// Where it reads (service, stream id, server): the viewer memory's channel. Nil for a
        /// stream that could not be made (it only reports why).
        public var address: StreamAddress?
        /// The stream's id on its service (a channel, a video), or a relay's address: what the
        /// control page's events name (`StreamAddress.channel`).
        public var channel: String { address?.channel ?? "" }
    }

    public var streams: [Stream]

    /// `web`: what the feeds reach the web through (the renderer's HTTPS; a test's double).
    public init(settings: BarSettings, registry: ServiceRegistry = .product, web: any WebFetching = StreamPlan.https) {
        var entries: [(address: StreamAddress?, problem: String?)] = []
        if settings.feeds.contains(where: { !$0.trimmingWhitespace(andNewlines: true).isEmpty }) {
            let (addresses, problems) = StreamAddress.list(settings.feeds, table: registry.streamURLs)
            entries = addresses.map { ($0, nil) } + problems.map { (nil, $0) }
        } else {
            entries = [(StreamAddress.legacy(service: settings.service, streamID: settings.streamID,
                                             server: settings.server, table: registry.streamURLs), nil)]
        }
        var seen: [String: Int] = [:]
        streams = entries.map { entry in
            let service = entry.address?.service ?? "error"
            let displayName = registry.service(id: service)?.displayName ?? service
            seen[displayName, default: 0] += 1
            let name = seen[displayName, default: 1] > 1 ? "\(displayName) \(seen[displayName, default: 1])" : displayName
            guard let address = entry.address else {
                return Stream(name: "stream list", service: service, badge: .plain,
                              feed: FailedFeed(message: entry.problem ?? ""))
            }
            let badge = registry.badge(service: address.service)
            let members = registry.memberBadges(service: address.service)
            do throws(FeedConfigError) {
                let feed = try registry.makeFeed(service: address.service,
                                                 request: FeedRequest(streamID: address.streamID, server: address.server,
                                                                       credentials: settings.credentials, web: web))
                return Stream(name: name, service: address.service, badge: badge, memberBadges: members, feed: feed,
                              address: address)
            } catch {
                return Stream(name: name, service: address.service, badge: badge,
                              feed: FailedFeed(message: error.message))
            }
        }
    }

    /// The renderer's HTTPS (`HTTPSTransport`, made from the process's environment).
    public static var https: any WebFetching { HTTPSTransport.shared }

    /// What the plan's problems say, for the log (empty when every stream has a feed).
    public var problems: [String] {
        streams.compactMap { ($0.feed as? FailedFeed).map { failed in "\(failed.message)" } }
    }
}

/// A stream that could not be made: it reports why and does nothing else.
struct FailedFeed: CommentFeed {
    let message: String

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        emit(.status(.error(message: message)))
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(3600)) } catch { return }
        }
    }
}

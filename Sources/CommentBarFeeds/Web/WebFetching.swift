// SPDX-License-Identifier: GPL-2.0-or-later
/// How a feed reaches the web: every HTTPS request of a platform (its API, its pages) and of the
/// pictures goes through one of these, given to the feed with its `FeedRequest`, never taken from
/// a global. The renderer's is CommentBarNet's `HTTPSTransport` (AsyncHTTPClient: TLS verified,
/// `COMMENTBAR_CONNECT_TO`, the address policy, caps, one deadline per request); tests give an
/// in-process double (`EmbeddedWeb`, as NIOEmbedded stands in for a network in swift-nio's tests).
public protocol WebFetching: Sendable {
    /// The body of a 200 answer to `request`, redirects followed (each checked again), capped at
    /// `request.limits.maxBytes`, all within `request.limits.timeout` (the body included); or why not.
    func fetch(_ request: WebRequest) async throws(WebFailure) -> WebResponse

    /// A 200 answer whose body is read as it comes (a long-lived stream the caller splits itself);
    /// no redirect is followed. `request.limits.timeout` bounds the whole answer, the body
    /// included: the stream fails with "timed out" when it passes.
    func open(_ request: WebRequest) async throws(WebFailure) -> WebBodyStream
}

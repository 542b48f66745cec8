// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarServices

/// `commentbar services`: the service registry, for people and for the OBS shim's build,
/// which generates its service list and Stream ID help from `--c-header` (no hand-kept copy in C).
struct Services: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the services the renderer knows (--json, or --c-header for the OBS shim's build).")

    @Flag(help: "Print a JSON list of {id, name, stream_id, stream_id_ja}.") var json = false
    @Flag(name: .customLong("c-header"), help: "Print the C header the OBS shim's service list and help are built from.")
    var cHeader = false

    func validate() throws {
        if json && cHeader { throw ValidationError("--json and --c-header are exclusive") }
    }

    func run() throws {
        if json {
            print(try ServiceListing.json(.product))
        } else if cHeader {
            print(ServiceListing.cHeader(.product), terminator: "")
        } else {
            print(ServiceListing.text(.product), terminator: "")
        }
    }
}

import ArgumentParser
struct Serve: AsyncParsableCommand { func run() async throws {} }

import ArgumentParser
struct Bench: AsyncParsableCommand { func run() async throws {} }

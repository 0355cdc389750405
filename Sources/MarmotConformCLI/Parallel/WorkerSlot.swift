// One of the N worker slots of `run --jobs N`: starts a worker process, feeds it units from the
// pool one at a time, and starts a fresh worker when one dies after it was up (its unit is an
// `error` run). A worker that dies before saying it is ready (its engines did not start) is not
// replaced: a replacement would fail the same way.
import ProcessSupport

enum WorkerSlot {
    struct Launch: Sendable {
        let executable: String
        let arguments: [String]

        func start() -> LineChannel {
            LineChannel.launch(executable: executable, arguments: arguments, stderr: { Console.error($0) })
        }
    }

    static func drive(_ pool: WorkerPool, _ launch: Launch) async {
        while await serve(launch.start(), pool) {}
    }

    /// Runs units on one worker until the pool is empty (false) or the worker died after it was up (true).
    static func serve(_ channel: LineChannel, _ pool: WorkerPool) async -> Bool {
        var lines = channel.lines.makeAsyncIterator()
        guard case .ready(let ready)? = await nextReply(&lines), ready.units == pool.total else {
            channel.close()
            await pool.startFailed("a worker did not start: \(await channel.status())")
            return false
        }
        await pool.ready(ready.versions)
        while let unit = await pool.take() {
            channel.send(String(unit))
            let reply = await nextReply(&lines)
            if case .run(unit, let timed)? = reply {
                await pool.finish(unit, timed)
                continue
            }
            channel.close()
            let status = await channel.status()
            let what =
                reply.map { "answered out of protocol: \(String(describing: $0).prefix(300))" } ?? "ended (\(status)) before reporting it"
            await pool.fail(unit, "the worker process running this run \(what); its stderr is above")
            return true
        }
        channel.close()
        _ = await channel.status()
        return false
    }

    /// The next protocol line; other lines are passed on to stderr. Nil when the worker's stdout ends.
    static func nextReply(_ lines: inout AsyncStream<String>.Iterator) async -> WorkerProtocol.Reply? {
        while let line = await lines.next() {
            let reply = WorkerProtocol.parse(line)
            if case .other(let text) = reply {
                Console.error(text)
                continue
            }
            return reply
        }
        return nil
    }
}

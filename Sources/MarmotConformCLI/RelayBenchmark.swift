import ArgumentParser
import DeterministicScheduler
import InMemoryRelay
import Nostr

extension MarmotConform {
    /// Measures the in-memory relay's ingest + live-match throughput.
    ///
    /// The relay is pre-loaded with `--stored` events, `--subscriptions` live subscriptions are
    /// opened over 100 connections, then `--ingest` fresh events are published. Two figures are
    /// printed: frames as a client sends them (JSON parse, id and BIP-340 check, store, match,
    /// fan-out), and already-verified events handed to the core (store, match, fan-out).
    struct BenchRelay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench-relay",
            abstract: "Benchmark in-memory relay ingest + match throughput (build with -c release)."
        )

        @Option(help: "Events stored before measuring.") var stored = 100_000
        @Option(help: "Live subscriptions open while measuring.") var subscriptions = 1_000
        @Option(help: "Events published while measuring (each path).") var ingest = 20_000
        @Option(help: "Seed for keys and event content.") var seed: UInt64 = 1
        @Option(help: "Publish-and-read-back rounds of the well-behaved client while another abuses the WebSocket server (0 skips it).")
        var abuseRounds = 200

        func run() throws {
            var generator = SeededGenerator(seed: seed)
            let authors = (0..<200).map { _ in Keypair.generate(using: &generator) }
            let groups = (0..<100).map { _ in hex64(&generator) }
            let base: UInt64 = 1_700_000_000
            print("signing \(stored + 2 * ingest) events…")
            var serial: UInt64 = 0
            func makeEvents(_ count: Int) throws -> [Event] {
                var events: [Event] = []
                events.reserveCapacity(count)
                for _ in 0..<count {
                    serial += 1
                    let author = authors[Int(serial % UInt64(authors.count))]
                    let kind: Kind
                    var tags: [[String]] = []
                    switch serial % 10 {
                    case 0..<6:
                        kind = .groupEvent
                        tags = [["h", groups[Int(serial % UInt64(groups.count))]]]
                    case 6, 7:
                        kind = .giftWrap
                        tags = [["p", authors[Int((serial / 10) % UInt64(authors.count))].publicKey.hex]]
                    case 8: kind = .textNote
                    default:
                        kind = .keyPackage
                        tags = [["d", String(serial)]]
                    }
                    let unsigned = UnsignedEvent(
                        pubkey: author.publicKey, createdAt: base + serial / 8, kind: kind, tags: tags,
                        content: "benchmark event \(serial)")
                    events.append(try unsigned.signed(with: author, using: &generator))
                }
                return events
            }
            let preload = try makeEvents(stored)
            let framed = try makeEvents(ingest).map { ClientMessage.event($0).json() }
            let direct = try makeEvents(ingest)
            let now = base + serial / 8 + 1

            var relay = Relay(url: "ws://127.0.0.1/", generator: generator.child("relay"))
            relay.keepsJournal = false
            let loader = ConnectionID(0)
            let clock = ContinuousClock()
            let loadTime = clock.measure {
                for event in preload { _ = relay.handle(.event(event), from: loader, now: now) }
            }
            print("preloaded \(relay.storedEventCount) stored events in \(format(loadTime))")

            for index in 0..<subscriptions {
                let filter: Filter
                switch index % 4 {
                case 0: filter = Filter(kinds: [.groupEvent], tags: ["h": [groups[index % groups.count]]], limit: 0)
                case 1: filter = Filter(kinds: [.giftWrap], tags: ["p": [authors[index % authors.count].publicKey.hex]], limit: 0)
                case 2: filter = Filter(authors: [authors[index % authors.count].publicKey.hex], kinds: [.keyPackage], limit: 0)
                default: filter = Filter(kinds: [.textNote], since: now, limit: 0)
                }
                let connection = ConnectionID(UInt64(1 + index % 100))
                _ = relay.handle(.request(subscription: SubscriptionID("s\(index)"), filters: [filter]), from: connection, now: now)
            }

            var fannedOut = 0
            let framedTime = clock.measure {
                for frame in framed { fannedOut += relay.receive(frame, from: loader, now: now).count - 1 }
            }
            var fannedOutDirect = 0
            let directTime = clock.measure {
                for event in direct { fannedOutDirect += relay.handle(.event(event), from: loader, now: now).count - 1 }
            }
            print("with \(relay.storedEventCount - 2 * ingest) stored events and \(subscriptions) live subscriptions:")
            print("  frames (parse + verify + store + match): \(rate(ingest, framedTime)) events/s, \(fannedOut) live deliveries")
            print("  verified events (store + match):        \(rate(ingest, directTime)) events/s, \(fannedOutDirect) live deliveries")

            // What one expensive frame costs: the most filters a frame may carry, each matching a
            // large share of the store (COUNT), and a small `limit` over the largest kind (REQ).
            let abuser = ConnectionID(500)
            let widest = (0..<relay.policy.maximumFiltersPerRequest).map { index in
                Filter(kinds: [.groupEvent, .giftWrap], since: base + UInt64(index))
            }
            var answer = ""
            let countTime = clock.measure {
                answer = relay.handle(.count(subscription: "abuse", filters: widest), from: abuser, now: now).first?.frame ?? ""
            }
            var served = 0
            let newestTime = clock.measure {
                let newest = Filter(kinds: [.groupEvent], limit: 10)
                served = relay.handle(.request(subscription: "newest", filters: [newest]), from: abuser, now: now).count - 1
            }
            print("expensive frames over \(relay.storedEventCount) stored events:")
            print("  COUNT with \(widest.count) broad filters: \(format(countTime)) answered \(answer.prefix(60))")
            print("  REQ kind 445 limit 10:               \(format(newestTime)) (\(served) events)")

            guard abuseRounds > 0 else { return }
            var abuse = RelayAbuseBench(
                stored: preload, rounds: abuseRounds, now: now, goodAuthor: authors[0], generator: generator.child("abuse"))
            RelayAbuseBench.print(try abuse.run(), stored: preload.count)
        }

        private func hex64(_ generator: inout SeededGenerator) -> String {
            (0..<4).map { _ in
                let digits = String(generator.next(), radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }

        private func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        private func format(_ duration: Duration) -> String {
            let value = seconds(duration)
            return String(Int(value * 1000)) + " ms"
        }

        private func rate(_ count: Int, _ duration: Duration) -> String {
            let value = seconds(duration)
            return value > 0 ? String(Int(Double(count) / value)) : "inf"
        }
    }
}

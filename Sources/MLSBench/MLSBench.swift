// `mls-bench`: times the group operations the issue asks for, on our own MLS, with one process
// playing every member. Timing needs the wall clock and the keys need randomness, which is why
// this lives in an executable and not in the MLS library (which takes both as parameters).
import MLS

@main
struct MLSBench {
    static func main() throws {
        let suite = CipherSuite.x25519AES128GCMSHA256Ed25519
        var rng = SystemRandomNumberGenerator()
        let clock = ContinuousClock()

        func keyPackages(_ count: Int, from first: Int) throws -> [KeyPackagePrivate] {
            try (first..<first + count).map { index in
                try KeyPackagePrivate.generate(
                    suite: suite, credential: .basic(identity: Array("member\(index)".utf8)),
                    signatureKeyPair: suite.generateSignatureKeyPair(using: &rng),
                    lifetime: Lifetime(notBefore: 0, notAfter: .max), using: &rng)
            }
        }
        func report(_ label: String, _ duration: Duration) {
            let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
            let padded = label + String(repeating: " ", count: max(1, 62 - label.count))
            print("\(padded)\(tenths / 10).\(tenths % 10) ms")
        }

        print("mls-bench: suite \(suite), one process playing every member")
        let creator = try keyPackages(1, from: 0)[0]
        let joiners = try keyPackages(99, from: 1)
        var alice = try Group(creating: Array("bench".utf8), creator: creator, using: &rng)

        var created: CreatedCommit?
        report(
            "create a 100-member group (1 commit adding 99 + Welcome)",
            try clock.measure {
                created = try alice.commit(adding: joiners.map { .add($0.keyPackage) }, using: &rng)
            })
        guard let first = created, let welcome = first.welcome else { return }
        alice = first.next
        var bob: Group?
        report(
            "  one invitee joins from that Welcome",
            try clock.measure {
                bob = try Group(welcome: welcome, keyPackage: joiners[0])
            })
        guard var bob else { return }

        let more = try keyPackages(10, from: 100)
        report(
            "add 10 members (1 commit) + one member processes it",
            try clock.measure {
                let add = try alice.commit(adding: more.map { .add($0.keyPackage) }, using: &rng)
                _ = try bob.process(add.commit)
                alice = add.next
            })

        let removed = Array(stride(from: UInt32(2), to: 22, by: 2))
        report(
            "remove 10 members (1 commit) + one member processes it",
            try clock.measure {
                let remove = try alice.commit(adding: removed.map { .remove(leaf: $0) }, using: &rng)
                _ = try bob.process(remove.commit)
                alice = remove.next
            })
        guard alice.epochAuthenticator == bob.epochAuthenticator else {
            print("mls-bench: members disagree on the epoch authenticator")
            return
        }

        let payload = Array(repeating: UInt8(0x61), count: 100)
        report(
            "protect + unprotect 1,000 application messages (100 B)",
            try clock.measure {
                for _ in 0..<1_000 {
                    let message = try alice.protect(application: payload, using: &rng)
                    guard case .application(let data, _) = try bob.process(message), data == payload else {
                        throw MLSError(.decryptionFailed, "round trip changed the payload")
                    }
                }
            })
        print("members: \(alice.tree.occupiedLeaves.count), epoch \(alice.epoch), authenticators agree")
    }
}

import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

// The hostile member's Welcomes about key packages (issue 30, N12, and the field's classes:
// marmot#383, whitenoise-rs#534 and #622, mdk#1910; docs/hostile-members.md). Each is a valid
// Welcome into a fresh group of ours (admin: us), framed for `record`'s profile, changed only where
// its attack says.
extension NativeSwiftEngine {
    func keyPackageWelcome(_ request: ForgeRequest, from record: GroupRecord) throws(EngineError) -> [UnsignedEvent] {
        switch request.attack {
        case .unsolicitedWelcome:
            return try honestFreshWelcome(request, from: record)
        case .welcomeWithoutKeyPackageTag:
            return try honestFreshWelcome(request, from: record).map { rumor in
                var rumor = rumor
                rumor.tags.removeAll { $0.first == "e" }
                return rumor
            }
        case .welcomeWrongKeyPackageTag:
            // An id no key-package event of the target's has: 32 fresh bytes.
            let other = random.bytes(32).hexString
            return try honestFreshWelcome(request, from: record).map { rumor in
                var rumor = rumor
                rumor.tags = rumor.tags.map { $0.first == "e" ? ["e", other] : $0 }
                return rumor
            }
        case .welcomeForOtherKeyPackage:
            return try welcomeForImpostorKeyPackage(request, from: record)
        default:
            throw EngineError(.invalidInput, "attack \(request.attack.rawValue) is not a key-package Welcome")
        }
    }

    /// A valid Welcome for the target's published key package into a fresh group of ours.
    func honestFreshWelcome(_ request: ForgeRequest, from record: GroupRecord) throws(EngineError) -> [UnsignedEvent] {
        record.profile == .current
            ? try currentFakeGroupWelcome(request, from: record, lookalike: false, flaw: nil, creatorProof: nil)
            : try fakeGroupWelcome(request, reusing: nil, flaw: nil)
    }

    /// Legacy profile: a Welcome sealed to a KeyPackage we generated with the target's identity
    /// (we hold its private half, the target never did), its `e` tag naming the target's real
    /// key-package event, as an inviter that picked the wrong key package would send it.
    func welcomeForImpostorKeyPackage(_ request: ForgeRequest, from record: GroupRecord) throws(EngineError) -> [UnsignedEvent] {
        guard record.profile == .legacy else {
            throw EngineError(.invalidInput, "attack \(request.attack.rawValue) is built on legacy-profile groups")
        }
        guard let event = request.targetKeyPackage else { throw EngineError(.invalidInput, "the attack needs the target's key package") }
        let impostor = try newKeyPackage(for: try target(request))
        let creator = try newKeyPackage(for: request.sender)
        let data = GroupData(
            nostrGroupID: random.bytes(32), name: "Look-alike", description: "", admins: [request.sender], relays: record.data.relays)
        let extensions = try marmotStep { () throws(MarmotError) in
            try MarmotCapabilities.groupContextExtensions(data: data, invitees: [impostor.keyPackage])
        }
        let now = clock()
        let created = try mlsStep { () throws(MLSError) in
            var group = try Group(creating: random.bytes(16), creator: creator, extensions: extensions, using: &random)
            return try group.uncheckedCommit(adding: [.add(impostor.keyPackage)], flaw: nil, now: now, using: &random)
        }
        guard let welcome = created.welcome else { throw EngineError(.internal, "the add made no Welcome") }
        return [
            try marmotStep { () throws(MarmotError) in
                try WelcomeRumor.make(
                    welcome: welcome, committer: request.sender, createdAt: now, relays: data.relays, keyPackageEvent: event.id,
                    client: Self.clientTag)
            }
        ]
    }
}

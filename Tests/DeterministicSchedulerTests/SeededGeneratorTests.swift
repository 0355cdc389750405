import DeterministicScheduler
import Testing

@Suite struct SeededGeneratorTests {
    // Reference outputs of the C implementations (xoshiro256starstar.c with state {1,2,3,4};
    // splitmix64.c with x = 1234567), as published alongside those algorithms.
    @Test func xoshiro256StarStarMatchesReferenceOutputs() {
        var generator = SeededGenerator(rawState: (1, 2, 3, 4))
        let expected: [UInt64] = [
            11520, 0, 1_509_978_240, 1_215_971_899_390_074_240, 1_216_172_134_540_287_360,
            607_988_272_756_665_600, 16_172_922_978_634_559_625, 8_476_171_486_693_032_832,
            10_595_114_339_597_558_777, 2_904_607_092_377_533_576,
        ]
        let outputs = (0..<10).map { _ in generator.next() }
        #expect(outputs == expected)
    }

    @Test func splitMix64MatchesReferenceOutputs() {
        var mixer = SplitMix64(state: 1_234_567)
        let expected: [UInt64] = [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ]
        let outputs = (0..<5).map { _ in mixer.next() }
        #expect(outputs == expected)
    }

    @Test func sameSeedGivesSameStreamAndOtherSeedsDiffer() {
        var a = SeededGenerator(seed: 7)
        var b = SeededGenerator(seed: 7)
        var c = SeededGenerator(seed: 8)
        let streamA = (0..<64).map { _ in a.next() }
        let streamB = (0..<64).map { _ in b.next() }
        let streamC = (0..<64).map { _ in c.next() }
        #expect(streamA == streamB)
        #expect(streamA != streamC)
    }

    @Test func childStreamsDependOnLabelAndSeedButNotOnParentDraws() {
        var parent = SeededGenerator(seed: 99)
        var before = parent.child("relay/a")
        for _ in 0..<10 { _ = parent.next() }
        var after = parent.child("relay/a")
        var sibling = parent.child("relay/b")
        var cousin = SeededGenerator(seed: 100).child("relay/a")
        let stream = (0..<16).map { _ in before.next() }
        let again = (0..<16).map { _ in after.next() }
        let siblingStream = (0..<16).map { _ in sibling.next() }
        let cousinStream = (0..<16).map { _ in cousin.next() }
        #expect(stream == again)
        #expect(stream != siblingStream)
        #expect(stream != cousinStream)
    }

    @Test func zeroStateIsReplacedSoTheStreamIsNotStuckAtZero() {
        var generator = SeededGenerator(rawState: (0, 0, 0, 0))
        let outputs = (0..<4).map { _ in generator.next() }
        #expect(outputs.contains { $0 != 0 })
    }
}

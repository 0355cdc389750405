import DeterministicScheduler
import GroupCore

/// A member timer on the world's timeline.
struct WorldTimer: Sendable {
    let time: VirtualInstant
    let sequence: UInt64
    let member: String
    let token: TimerToken
}

import Nostr

// The channel protocol's event kinds. Control messages travel as NIP-59 gift-wrapped rumors to
// the recipient's inbox relays (a subscriber shares no group with a relay before it joins);
// broadcasts travel as MLS application messages whose content is the owner-signed inner event.
//
//   join request   kind 4450, tags [["h", <channel id>]], content ""              subscriber → relay
//   relay status   kind 4451, tags [["h", <channel id>]], content {"status": "accepted" | "active",
//                  "subscribers": n}                                             relay → owners
//   status ping    kind 4453, tags [["h", <channel id>]], content ""              owner → relay
//   broadcast      kind 4452 application message, content = the NIP-01 JSON of a kind-9 event
//                  signed by an owner, tags [["h", <channel id>]]                owner → relays → subscribers
extension Kind {
    static let channelJoinRequest: Kind = 4450
    static let channelRelayStatus: Kind = 4451
    static let channelBroadcast: Kind = 4452
    static let channelStatusPing: Kind = 4453
}

import Nostr

// The channel protocol's event kinds. Control messages travel as NIP-59 gift-wrapped rumors to
// the recipient's inbox relays (a subscriber shares no group with a relay before it joins);
// broadcasts travel as MLS application messages whose content is the owner-signed inner event.
//
// (4450–4452 are the role table's: in-group control 4450, gift-wrapped link request/answer
// 4451/4452; channels use 4460–4463.)
//
//   join request   kind 4460, tags [["h", <channel id>]], content ""              subscriber → relay
//   relay status   kind 4461, tags [["h", <channel id>]], content {"status": "accepted" | "active",
//                  "subscribers": n}                                             relay → owners
//   status ping    kind 4463, tags [["h", <channel id>]], content ""              owner → relay
//   broadcast      kind 4462 application message, content = the NIP-01 JSON of a kind-9 event
//                  signed by an owner, tags [["h", <channel id>]]                owner → relays → subscribers
//   closed         kind 4464 application message, content = the NIP-01 JSON of a kind-4464 event
//                  signed by an owner, tags [["h", <channel id>]], content ""    owner → relays → subscribers
//                  (the relays answer with a relay status {"status": "closed"})
//   leave          kind 4465, tags [["h", <channel id>]], content ""              subscriber → relay
extension Kind {
    package static let channelJoinRequest: Kind = 4460
    package static let channelRelayStatus: Kind = 4461
    package static let channelBroadcast: Kind = 4462
    package static let channelStatusPing: Kind = 4463
    package static let channelClosed: Kind = 4464
    package static let channelLeave: Kind = 4465
}

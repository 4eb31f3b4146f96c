#if DEBUG
    extension ODRDevice {
        /// What the device's state must always satisfy, recomputed from the pack records and
        /// compared with the totals kept incrementally: a list of violations, empty when all
        /// hold. Compiled in debug builds (and so in tests) only; O(packs + apps).
        ///
        /// - The disk is not overfull, and no byte count is negative.
        /// - The bytes the packs hold are ``odrBytes``; what running downloads still need is
        ///   ``reservedBytes``; partial downloads nobody continues are the leftovers, in bytes
        ///   and in the list.
        /// - A pack is purgeable exactly when it is on the device whole, no request holds,
        ///   awaits or downloads it, and its app is installed; the per-app and per-tier
        ///   purgeable totals are the sums of those packs.
        /// - A pack held by a request is on the device whole; each app's committed bytes are
        ///   those of its packs that requests hold or await.
        public func checkInvariants() -> [String] {
            var found: [String] = []
            if usedBytes > capacity { found.append("disk overfull: \(usedBytes) > \(capacity)") }
            if state.odrBytes < 0 || state.reservedBytes < 0 || state.otherBytes < 0 {
                found.append(
                    "negative bytes: odr \(state.odrBytes), reserved \(state.reservedBytes), other \(state.otherBytes)")
            }
            var onDisk: Int64 = 0
            var reserved: Int64 = 0
            var leftover: Int64 = 0
            var leftovers: [PackID] = []
            var tiers: [Bool: (bytes: Int64, count: Int)] = [true: (0, 0), false: (0, 0)]
            var perApp = [(bytes: Int64, count: Int)](repeating: (0, 0), count: state.apps.count)
            var committed = [Int64](repeating: 0, count: state.apps.count)
            for i in state.packs.indices {
                let record = state.packs[i]
                let detail = state.packDetails[i]
                let a = record.app.index
                onDisk += bytesOnDisk(PackID(i))
                if record.downloading != (detail.download >= 0) {
                    found.append("pack \(i) downloading \(record.downloading) with download slot \(detail.download)")
                }
                if record.downloading {
                    reserved += record.size - detail.received + state.downloadUnpack[detail.downloadSlot]
                }
                if record.leftover {
                    leftover += detail.received
                    leftovers.append(PackID(i))
                }
                let settled = record.pins == 0 && !record.downloading
                let purgeable =
                    settled && record.phase == .resident && record.retain == 0 && state.apps[record.app].isPresent
                if purgeable != record.purgeable {
                    found.append("pack \(i) purgeable \(record.purgeable), its state says \(purgeable)")
                }
                if record.leftover != (settled && record.phase == .partial) {
                    found.append("pack \(i) leftover \(record.leftover) in phase \(record.phase)")
                }
                if record.purgeable {
                    tiers[state.apps[record.app].running]!.bytes += record.size
                    tiers[state.apps[record.app].running]!.count += 1
                    perApp[a].bytes += record.size
                    perApp[a].count += 1
                }
                // Bytes received are noted only while a download runs and for a partial pack
                // (``ODRDevice/access(_:tag:at:)`` reads them for no other).
                if !record.downloading && record.phase != .partial && detail.received != 0 {
                    found.append("pack \(i) \(record.phase) with \(detail.received) bytes received still noted")
                }
                if record.retain > 0 && record.phase != .resident {
                    found.append("pack \(i) held in phase \(record.phase)")
                }
                if record.retain < 0 || record.pins < 0 {
                    found.append("pack \(i) retain \(record.retain), pins \(record.pins)")
                }
                if record.retain > 0 || record.pins > 0 { committed[a] += record.size }
            }
            if onDisk != state.odrBytes { found.append("packs hold \(onDisk) bytes, odrBytes \(state.odrBytes)") }
            if reserved != state.reservedBytes {
                found.append("downloads need \(reserved), reserved \(state.reservedBytes)")
            }
            if leftover != state.leftoverBytes {
                found.append("leftovers hold \(leftover), leftoverBytes \(state.leftoverBytes)")
            }
            if leftovers != state.leftoverPacks.sorted() {
                found.append("leftover packs \(leftovers), list \(state.leftoverPacks.sorted())")
            }
            for tier in [PurgeTier.runningApps, .appsNotRunning] {
                let expected = tiers[tier == .runningApps]!
                if purgeableBytes(in: tier) != expected.bytes || candidateCount(in: tier) != expected.count {
                    found.append(
                        """
                        \(tier): purgeable \(purgeableBytes(in: tier)) bytes in \(candidateCount(in: tier)) \
                        state.packs, records say \(expected.bytes) in \(expected.count)
                        """
                    )
                }
            }
            for a in state.apps.indices {
                if state.apps[a].purgeableBytes != perApp[a].bytes || state.apps[a].purgeableCount != perApp[a].count {
                    found.append(
                        """
                        app \(a) purgeable \(state.apps[a].purgeableBytes) in \(state.apps[a].purgeableCount), \
                        records say \(perApp[a].bytes) in \(perApp[a].count)
                        """
                    )
                }
                if state.apps[a].committedBytes != committed[a] {
                    found.append("app \(a) committed \(state.apps[a].committedBytes), recounted \(committed[a])")
                }
            }
            return found
        }
    }
#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/// Which pixels a pool slot lacks. A slot keeps the frame the renderer last wrote
/// into it (readers never write), so before a frame is built on the newest one, the
/// back slot needs only what the frames published since it was written changed.
/// Pure bookkeeping: it draws nothing and knows nothing of Cairo.
struct DamageTracker {
    /// The whole frame: what a slot lacks when nothing is known of it.
    let bounds: PixelRect
    /// How many frames' changes are remembered; a slot further behind is copied whole.
    let depth: Int

    private var pool: ObjectIdentifier?
    private var framesPublished = 0
    /// The frame number each slot holds.
    private var slotHolds: [Int: Int] = [:]
    /// Where the comment rows of the frame each slot holds are (the rest of the comment area is
    /// the stable layer's).
    private var slotRows: [Int: PixelRect] = [:]
    /// What each recent frame changed, oldest first.
    private var log: [(frame: Int, rects: [PixelRect])] = []

    init(width: Int, height: Int, depth: Int = 8) {
        bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        self.depth = depth
    }

    /// Frames go to `pool`; returns true when it is another pool than before, of
    /// which nothing is known (every slot then lacks everything).
    mutating func use(pool identity: ObjectIdentifier) -> Bool {
        guard pool != identity else { return false }
        pool = identity
        slotHolds.removeAll()
        slotRows.removeAll()
        log.removeAll()
        return true
    }

    /// Where `slot` differs from the newest published frame: the changes of the frames
    /// published since it was written, or the whole frame when that is not known.
    func missing(in slot: Int) -> Set<PixelRect> {
        guard isKnown(slot), let held = slotHolds[slot] else { return [bounds] }
        var rects: Set<PixelRect> = []
        for entry in log where entry.frame > held { rects.formUnion(entry.rects) }
        return rects
    }

    /// Where the comment rows of the frame `slot` holds are, when that frame is known (nil: the
    /// slot's comment area must be written whole).
    func rows(in slot: Int) -> PixelRect? {
        isKnown(slot) ? slotRows[slot] : nil
    }

    /// The comment area moved (a pinned comment came or went) or what lies under the rows changed
    /// (the frame was composed): where the rows of the frames the slots hold are says nothing of
    /// the area now, so each slot's comment area is written whole.
    mutating func forgetRows() {
        slotRows.removeAll()
    }

    /// Whether what `slot` lacks is known: it was written, and the frames since are in the log.
    private func isKnown(_ slot: Int) -> Bool {
        guard let held = slotHolds[slot], let oldest = log.first else { return false }
        return held >= oldest.frame - 1
    }

    /// `slot` was published as the newest frame, differing from the one before in `rects`;
    /// `rows`: where its comment rows are.
    mutating func published(slot: Int, changed rects: [PixelRect], rows: PixelRect? = nil) {
        framesPublished += 1
        slotHolds[slot] = framesPublished
        slotRows[slot] = rows
        log.append((framesPublished, rects))
        if log.count > depth { log.removeFirst(log.count - depth) }
    }
}

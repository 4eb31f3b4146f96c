extension Substring {
    /// Without leading and trailing blanks (spaces and tabs), which quoted YAML values may keep.
    public func trimmingBlanks() -> Substring {
        let isText: (Character) -> Bool = { $0 != " " && $0 != "\t" }
        guard let first = firstIndex(where: isText), let last = lastIndex(where: isText) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

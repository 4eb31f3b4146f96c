/// A piece of a policy's state that is not per pack (a list of members, a purge's victims,
/// per-app totals, a lookup table), held so that changing it costs what changing a local
/// variable costs.
///
/// Performance: the value lives behind a pointer the container holds, and the policy holds
/// the container in a `let`, so `members.value.append(x)` is not an access of a class's
/// stored property, which Swift checks at run time (a call into the runtime per append or
/// element write). With ``Column`` for per-pack values, this is where policies keep their
/// state; they carry no performance annotations of their own.
final class PolicyState<Value> {
    private let storage: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The value, read and changed in place.
    var value: Value {
        unsafeAddress { UnsafePointer(storage) }
        unsafeMutableAddress { storage }
    }
}

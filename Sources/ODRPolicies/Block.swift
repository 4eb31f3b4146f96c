/// A block of `grown` elements holding the first `count` of `block` (which is freed), the
/// rest `filler` if there is one (left uninitialized otherwise, for slots written before they
/// are read): how ``Column``, ``PackLinks`` and ``PackHeap`` grow their storage, and the
/// trace replay's linked scan its stream.
@inlinable
package func regrow<T>(_ block: UnsafeMutablePointer<T>, from count: Int, to grown: Int, filling filler: T?)
    -> UnsafeMutablePointer<T>
{
    let new = UnsafeMutablePointer<T>.allocate(capacity: grown)
    new.moveInitialize(from: block, count: count)
    if let filler { (new + count).initialize(repeating: filler, count: grown - count) }
    block.deallocate()
    return new
}

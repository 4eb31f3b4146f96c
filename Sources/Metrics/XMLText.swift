/// Text for XML, SVG and HTML: the five special characters escaped, and control characters
/// XML 1.0 cannot carry turned into '?'. Plain text comes back as it is, without a copy.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
                    || ($0 < 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D)
            })
        else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default: if scalar.value < 0x20 { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}

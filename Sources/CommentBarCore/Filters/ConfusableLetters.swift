// SPDX-License-Identifier: GPL-2.0-or-later
/// Greek and Cyrillic letters that look like a Latin letter, as that letter: the idea of a
/// confusables skeleton (Unicode UTS #39), kept to what NG words need, so `bаd` with a Cyrillic
/// `а` is the word `bad`. No library in the renderer offers the skeleton (ICU's uspoof is not
/// linked), so the table is here, small and taken from one source by one rule:
///
/// every Greek (U+0370…U+03FF) or Cyrillic (U+0400…U+052F) letter that Unicode's
/// `confusables.txt` (https://www.unicode.org/Public/security/14.0.0/confusables.txt, version
/// 14.0.0) maps to one ASCII letter, as that letter. One change: the file maps the capital-I
/// look-alikes (Ι, І, Ӏ) to `l` because UTS #39 also maps the Latin `I` to `l`; the filters
/// keep ASCII as typed (`1`, `0`, `rn` stay themselves, so ordinary text and numbers never
/// match a word they only resemble), so those three are `I` here. U+037A is left out: NFKD
/// turns it into a space and a combining mark before this table is asked.
///
/// Applied after NFKD and before case folding, so a capital look-alike becomes the capital
/// Latin letter it shows (Cyrillic `В` is `B`, while the lower-case `в`, unlike `b`, is itself).
enum ConfusableLetters {
    static func latin(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x037F: return "J"  // Ϳ greek capital letter yot
        case 0x0391: return "A"  // Α greek capital letter alpha
        case 0x0392: return "B"  // Β greek capital letter beta
        case 0x0395: return "E"  // Ε greek capital letter epsilon
        case 0x0396: return "Z"  // Ζ greek capital letter zeta
        case 0x0397: return "H"  // Η greek capital letter eta
        case 0x0399: return "I"  // Ι greek capital letter iota
        case 0x039A: return "K"  // Κ greek capital letter kappa
        case 0x039C: return "M"  // Μ greek capital letter mu
        case 0x039D: return "N"  // Ν greek capital letter nu
        case 0x039F: return "O"  // Ο greek capital letter omicron
        case 0x03A1: return "P"  // Ρ greek capital letter rho
        case 0x03A4: return "T"  // Τ greek capital letter tau
        case 0x03A5: return "Y"  // Υ greek capital letter upsilon
        case 0x03A7: return "X"  // Χ greek capital letter chi
        case 0x03B1: return "a"  // α greek small letter alpha
        case 0x03B3: return "y"  // γ greek small letter gamma
        case 0x03B9: return "i"  // ι greek small letter iota
        case 0x03BD: return "v"  // ν greek small letter nu
        case 0x03BF: return "o"  // ο greek small letter omicron
        case 0x03C1: return "p"  // ρ greek small letter rho
        case 0x03C3: return "o"  // σ greek small letter sigma
        case 0x03C5: return "u"  // υ greek small letter upsilon
        case 0x03D2: return "Y"  // ϒ greek upsilon with hook symbol
        case 0x03DC: return "F"  // Ϝ greek letter digamma
        case 0x03F1: return "p"  // ϱ greek rho symbol
        case 0x03F2: return "c"  // ϲ greek lunate sigma symbol
        case 0x03F3: return "j"  // ϳ greek letter yot
        case 0x03F9: return "C"  // Ϲ greek capital lunate sigma symbol
        case 0x03FA: return "M"  // Ϻ greek capital letter san
        case 0x0405: return "S"  // Ѕ cyrillic capital letter dze
        case 0x0406: return "I"  // І cyrillic capital letter byelorussian-ukrainian i
        case 0x0408: return "J"  // Ј cyrillic capital letter je
        case 0x0410: return "A"  // А cyrillic capital letter a
        case 0x0412: return "B"  // В cyrillic capital letter ve
        case 0x0415: return "E"  // Е cyrillic capital letter ie
        case 0x041A: return "K"  // К cyrillic capital letter ka
        case 0x041C: return "M"  // М cyrillic capital letter em
        case 0x041D: return "H"  // Н cyrillic capital letter en
        case 0x041E: return "O"  // О cyrillic capital letter o
        case 0x0420: return "P"  // Р cyrillic capital letter er
        case 0x0421: return "C"  // С cyrillic capital letter es
        case 0x0422: return "T"  // Т cyrillic capital letter te
        case 0x0423: return "Y"  // У cyrillic capital letter u
        case 0x0425: return "X"  // Х cyrillic capital letter ha
        case 0x042C: return "b"  // Ь cyrillic capital letter soft sign
        case 0x0430: return "a"  // а cyrillic small letter a
        case 0x0433: return "r"  // г cyrillic small letter ghe
        case 0x0435: return "e"  // е cyrillic small letter ie
        case 0x043E: return "o"  // о cyrillic small letter o
        case 0x0440: return "p"  // р cyrillic small letter er
        case 0x0441: return "c"  // с cyrillic small letter es
        case 0x0443: return "y"  // у cyrillic small letter u
        case 0x0445: return "x"  // х cyrillic small letter ha
        case 0x0455: return "s"  // ѕ cyrillic small letter dze
        case 0x0456: return "i"  // і cyrillic small letter byelorussian-ukrainian i
        case 0x0458: return "j"  // ј cyrillic small letter je
        case 0x0461: return "w"  // ѡ cyrillic small letter omega
        case 0x0474: return "V"  // Ѵ cyrillic capital letter izhitsa
        case 0x0475: return "v"  // ѵ cyrillic small letter izhitsa
        case 0x04AE: return "Y"  // Ү cyrillic capital letter straight u
        case 0x04AF: return "y"  // ү cyrillic small letter straight u
        case 0x04BB: return "h"  // һ cyrillic small letter shha
        case 0x04BD: return "e"  // ҽ cyrillic small letter abkhasian che
        case 0x04C0: return "I"  // Ӏ cyrillic letter palochka
        case 0x04CF: return "i"  // ӏ cyrillic small letter palochka
        case 0x0501: return "d"  // ԁ cyrillic small letter komi de
        case 0x050C: return "G"  // Ԍ cyrillic capital letter komi sje
        case 0x051B: return "q"  // ԛ cyrillic small letter qa
        case 0x051C: return "W"  // Ԝ cyrillic capital letter we
        case 0x051D: return "w"  // ԝ cyrillic small letter we
        default: return nil
        }
    }
}

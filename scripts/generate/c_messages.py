#!/usr/bin/env python3
"""Protocol/messages.json -> the core's two generated headers. Both are committed; `make test`
regenerates them and fails when a committed one differs.

  core/include/thr_wire.h  (public)  version, channels, message ids and every enum of messages.json
                                      as a typedef'd C enum (thr_status, thr_stop_reason, ...), and the
                                      field codes of the schema tables
  core/thr_messages.h      (core)    the schema tables the payload checker walks, and per message its
                                      layout (offsets as named constants) with typed accessors:
                                      thr_get_<message>_<field> for what the board receives (over the
                                      values the checker decoded, or the payload for lists and bytes),
                                      thr_put_<message>_<field> for what it sends; list items alike.

Usage: scripts/generate/c_messages.py MESSAGES_JSON THR_MESSAGES_H THR_WIRE_H"""
import json
import re
import sys

# Field codes of the schema tables (the checker, core/thr_message.c, reads them by these names).
CODES = [("u8", 1), ("u16", 2), ("u32", 3), ("i16", 4), ("i32", 5), ("bool", 6), ("str", 7), ("bytes", 8), ("list", 9)]
CODE = dict(CODES)
SIZE = {"u8": 1, "u16": 2, "u32": 4, "i16": 2, "i32": 4, "bool": 1}
# What a reader returns: the checker decodes into 32-bit values, i16 sign-extended.
READ_TYPE = {"u8": "uint8_t", "bool": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "i16": "int32_t", "i32": "int32_t"}
WRITE_TYPE = {"u8": "uint8_t", "bool": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "i16": "int16_t", "i32": "int32_t"}
RECEIVED = ("host_to_board", "both")
SENT = ("board_to_host", "both")
# The checker decodes this many top-level fields of a received message (thr_message.h).
MAX_DECODED = 8


def field_codes(fields):
    out = []
    for field in fields:
        out.append(CODE[field["type"]])
        if field["type"] == "str":
            out.append(field["max"])
        elif field["type"] == "list":
            out += [field["max"], len(field["item"])] + field_codes(field["item"])
    return out


def c_name(*parts):
    return "_".join(p.lower() for p in parts)


def const(*parts):
    return "THR_" + "_".join(p.upper() for p in parts)


def layout(fields):
    """Offsets of the fields: (field, segment, offset), where segment is None (from the payload's
    start) or the variable-length field after whose end the offset counts."""
    out, segment, at = [], None, 0
    for field in fields:
        out.append((field, segment, at))
        if field["type"] in SIZE:
            at += SIZE[field["type"]]
        else:
            segment, at = field["name"], 0
    return out, segment, at


def item_layout(items):
    out, at = [], 0
    for item in items:
        assert item["type"] in SIZE, "list items hold fixed-size fields only"
        out.append((item, at))
        at += SIZE[item["type"]]
    return out, at


def write_value(field, enums):
    """C type a writer takes: the enum's type for enum fields."""
    return "thr_" + field["enum"] if "enum" in field and field["enum"] in enums else WRITE_TYPE[field["type"]]


def store(kind, where, value):
    if SIZE[kind] == 1:
        return "%s = (uint8_t)%s;" % (where, value)
    cast = {"i16": "(uint16_t)", "i32": "(uint32_t)", "u16": "", "u32": ""}[kind]
    return "thr_put%d(%s, %s%s);" % (SIZE[kind] * 8, where, cast, value)


def load(kind, where):
    if SIZE[kind] == 1:
        return where
    value = "thr_get%d(%s)" % (SIZE[kind] * 8, where)
    if kind == "i16":
        return "(int32_t)(int16_t)" + value
    if kind == "i32":
        return "(int32_t)" + value
    return "(uint16_t)" + value if kind == "u16" else value


def message_section(message, enums):
    name = message["name"]
    lower = name.lower()
    received = message["direction"] in RECEIVED
    sent = message["direction"] in SENT
    fields, last_segment, last_at = layout(message["fields"])
    lines = ["", "/* ---- %s (%d, %s) ---- */" % (name, message["id"], message["direction"].replace("_", " "))]
    if not message["fields"]:
        lines.append("#define %s 0u   /* no fields */" % const(name, "SIZE"))
        return lines
    if last_segment is None:
        lines.append("#define %s %du" % (const(name, "SIZE"), last_at))
    elif all(f["type"] != "bytes" for f in message["fields"]):
        longest = sum(SIZE[f["type"]] if f["type"] in SIZE else
                      1 + f["max"] * (1 if f["type"] == "str" else item_layout(f["item"])[1]) for f in message["fields"])
        lines.append("#define %s %du   /* every string and list at its max */" % (const(name, "MAX_SIZE"), longest))
    for index, (field, segment, at) in enumerate(fields):
        fname, kind = field["name"], field["type"]
        where = " from the end of %s" % segment if segment else ""
        note = " /* %s%s%s */" % (kind, (", enum " + field["enum"]) if "enum" in field else "", where)
        lines.append("#define %s %du%s" % (const(name, fname, "AT"), at, note))
        if received:
            assert index < MAX_DECODED, "%s: the checker decodes %d fields" % (name, MAX_DECODED)
            lines.append("#define %s %du   /* decoded value index */" % (const(name, fname, "FIELD"), index))
        if kind in ("str", "list"):
            lines.append("#define %s %du" % (const(name, fname, "MAX"), field["max"]))
        if kind == "str":
            lines.append("#define %s %du" % (const(name, fname, "TEXT_AT"), at + 1))
        if kind == "list":
            items, item_size = item_layout(field["item"])
            lines.append("#define %s %du" % (const(name, fname, "ITEMS_AT"), at + 1))
            lines.append("#define %s %du" % (const(name, fname, "ITEM_SIZE"), item_size))
            for item, item_at in items:
                lines.append("#define %s %du   /* %s, in an item */" % (const(name, fname, item["name"], "AT"), item_at,
                                                                     item["type"]))
    if any(segment for _, segment, _ in fields):
        lines.append("/* a field after a string: p is the end of that string's text (thr_put_..._length) */")
    for field, segment, at in fields:
        fname, kind = field["name"], field["type"]
        if received:
            if kind in SIZE and SIZE[kind] == 1:
                assert segment is None, "%s: a received field after a string or list" % name
                lines.append("THR_ACCESSOR uint8_t thr_get_%s(const uint8_t *p) { return p[%s]; }"
                             % (c_name(name, fname), const(name, fname, "AT")))
            elif kind in SIZE:
                cast = "" if kind == "u32" else "(%s)" % READ_TYPE[kind]
                lines.append("THR_ACCESSOR %s thr_get_%s(const uint32_t *v) { return %sv[%s]; }"
                             % (READ_TYPE[kind], c_name(name, fname), cast, const(name, fname, "FIELD")))
            elif kind == "bytes":
                lines.append("THR_ACCESSOR const uint8_t *thr_get_%s(const uint8_t *p) { return p + %s; }"
                             % (c_name(name, fname), const(name, fname, "AT")))
            elif kind == "str":
                lines.append("THR_ACCESSOR uint8_t thr_get_%s_length(const uint8_t *p) { return p[%s]; }"
                             % (c_name(name, fname), const(name, fname, "AT")))
                lines.append("THR_ACCESSOR const uint8_t *thr_get_%s_text(const uint8_t *p) { return p + %s; }"
                             % (c_name(name, fname), const(name, fname, "TEXT_AT")))
            else:
                lines.append("THR_ACCESSOR uint8_t thr_get_%s_count(const uint8_t *p) { return p[%s]; }"
                             % (c_name(name, fname), const(name, fname, "AT")))
                lines.append("THR_ACCESSOR const uint8_t *thr_get_%s_item(const uint8_t *p, unsigned i) "
                             "{ return p + %s + i * %s; }" % (c_name(name, fname), const(name, fname, "ITEMS_AT"),
                                                              const(name, fname, "ITEM_SIZE")))
                for item, item_at in item_layout(field["item"])[0]:
                    lines.append("THR_ACCESSOR %s thr_get_%s(const uint8_t *item) { return %s; }"
                                 % (READ_TYPE[item["type"]], c_name(name, fname, item["name"]),
                                    load(item["type"], "item[%s]" % const(name, fname, item["name"], "AT")
                                         if SIZE[item["type"]] == 1 else
                                         "item + %s" % const(name, fname, item["name"], "AT"))))
        if sent:
            at_name = const(name, fname, "AT")
            if kind in SIZE:
                target = "p[%s]" % at_name if SIZE[kind] == 1 else "p + %s" % at_name
                lines.append("THR_ACCESSOR void thr_put_%s(uint8_t *p, %s x) { %s }"
                             % (c_name(name, fname), write_value(field, enums), store(kind, target, "x")))
            elif kind == "bytes":
                lines.append("THR_ACCESSOR uint8_t *thr_put_%s(uint8_t *p) { return p + %s; }"
                             % (c_name(name, fname), at_name))
            elif kind == "str":
                lines.append("THR_ACCESSOR uint8_t *thr_put_%s_text(uint8_t *p) { return p + %s; }"
                             % (c_name(name, fname), const(name, fname, "TEXT_AT")))
                lines.append("/* writes the length of the text already written; returns the end of the text */")
                lines.append("THR_ACCESSOR uint8_t *thr_put_%s_length(uint8_t *p, uint8_t n) "
                             "{ p[%s] = n; return p + %s + n; }" % (c_name(name, fname), at_name,
                                                                  const(name, fname, "TEXT_AT")))
            else:
                lines.append("/* writes the item count; returns the end of the items */")
                lines.append("THR_ACCESSOR uint8_t *thr_put_%s_count(uint8_t *p, uint8_t n) "
                             "{ p[%s] = n; return p + %s + n * %s; }"
                             % (c_name(name, fname), at_name, const(name, fname, "ITEMS_AT"),
                                const(name, fname, "ITEM_SIZE")))
                lines.append("THR_ACCESSOR uint8_t *thr_put_%s_item(uint8_t *p, unsigned i) { return p + %s + i * %s; }"
                             % (c_name(name, fname), const(name, fname, "ITEMS_AT"), const(name, fname, "ITEM_SIZE")))
                for item, item_at in item_layout(field["item"])[0]:
                    item_at_name = const(name, fname, item["name"], "AT")
                    target = "item[%s]" % item_at_name if SIZE[item["type"]] == 1 else "item + %s" % item_at_name
                    lines.append("THR_ACCESSOR void thr_put_%s(uint8_t *item, %s x) { %s }"
                                 % (c_name(name, fname, item["name"]), write_value(item, enums),
                                    store(item["type"], target, "x")))
    return lines


def wire_header(spec):
    lines = ["/* Generated by scripts/generate/c_messages.py from Protocol/messages.json. Do not edit. */",
             "/* The wire's numbers (Protocol/PROTOCOL.md): version, channels, message ids and enums. */",
             "#ifndef THR_WIRE_H", "#define THR_WIRE_H", "",
             "#define THR_WIRE_MAJOR %du" % spec["version"]["major"],
             "#define THR_WIRE_MINOR %du" % spec["version"]["minor"],
             "#define THR_FRAME_FORMAT %du" % spec["frame_format"], "",
             "typedef enum thr_channel {"]
    lines += ["    %s = %d," % (const("channel", name), value) for name, value in spec["channels"].items()]
    lines += ["} thr_channel;", "", "typedef enum thr_msg_type {"]
    lines += ["    THR_MSG_%s = %d," % (m["name"], m["id"]) for m in spec["messages"]]
    lines += ["} thr_msg_type;"]
    for enum_name, values in spec["enums"].items():
        lines += ["", "typedef enum thr_%s {" % enum_name]
        lines += ["    %s = %d," % (const(enum_name, name), value) for name, value in values.items()]
        lines.append("} thr_%s;" % enum_name)
        if sorted(values.values()) == list(range(len(values))):
            lines.append("#define %s %du   /* values 0 .. count - 1 */" % (const(enum_name, "COUNT"), len(values)))
    lines += ["", "/* Field codes of the schema tables (thr_messages.h): str is followed by its max, list by its max,",
              "   its item field count and the items' codes. */", "typedef enum thr_field_code {"]
    lines += ["    THR_FIELD_%s = %d," % (name.upper(), code) for name, code in CODES]
    lines += ["} thr_field_code;", "", "#endif", ""]
    return lines


def messages_header(spec):
    enums = spec["enums"]
    lines = ["/* Generated by scripts/generate/c_messages.py from Protocol/messages.json. Do not edit. */",
             "/* Message layouts: schema tables for the payload checker (thr_message.c), and per message its",
             "   field offsets (_AT, from the payload's start unless noted), sizes and typed accessors:",
             "   thr_get_<message>_<field> reads a field of a received message: a byte (u8, bool) from the",
             "   payload p, a wider field from the values the checker decoded (thr_msg_decode: v[_FIELD], i16",
             "   sign-extended), which is one word load instead of assembling bytes; lists and bytes from the",
             "   payload. Enum fields are read raw, not yet checked against their enum. The compiler rejects",
             "   p where v is meant and the reverse. thr_put_<message>_<field>(p, x) writes a field of a",
             "   message the board sends. */",
             "#ifndef THR_MESSAGES_H", "#define THR_MESSAGES_H", "#include <stdint.h>", "",
             '#include "thr_bytes.h"', '#include "thr_wire.h"', ""]
    for title, symbol, accepted in (("Messages the board accepts", "thr_msg_schema", RECEIVED),
                                    ("Every message (tests)", "thr_msg_schema_all", RECEIVED + ("board_to_host",))):
        lines.append("#ifdef THR_MESSAGES_ALL" if symbol.endswith("_all") else "#ifdef THR_MESSAGES_SCHEMA")
        lines += ["/* %s: id, field count, field codes (thr_field_code). Ends with 0xFF. */" % title,
                  "static const uint8_t %s[] = {" % symbol]
        for message in spec["messages"]:
            if message["direction"] not in accepted:
                continue
            codes = field_codes(message["fields"])
            lines.append("    %d, %d, %s /* %s */" % (message["id"], len(message["fields"]),
                                                     "".join("%d, " % c for c in codes), message["name"]))
        lines += ["    0xFF", "};", "#endif", ""]
    # commands with a tag and an at_time: the dispatcher reports them LATE when their time has passed
    tagged = [m for m in spec["messages"] if m["direction"] in RECEIVED and any(f["name"] == "tag" for f in m["fields"])]
    for m in tagged:
        assert m["fields"][0]["name"] == "tag" and m["fields"][0]["type"] == "u16", m["name"]
    timed = [m for m in tagged if any(f["name"] == "at_time" for f in m["fields"])]
    lines += ["/* A command's tag is its first field (u16): the reply and LATE carry it. */",
              "#define THR_TAG_FIELD 0u",
              "THR_ACCESSOR uint16_t thr_get_tag(const uint32_t *v) { return (uint16_t)v[THR_TAG_FIELD]; }"]
    for message in spec["messages"]:
        lines += message_section(message, enums)
    lines += ["", "#ifdef THR_MESSAGES_TIMED",
              "/* The commands with a tag and an at_time: id, decoded value index of at_time. */",
              "static const uint8_t thr_msg_timed[][2] = {"]
    lines += ["    { THR_MSG_%s, %s }," % (m["name"], const(m["name"], "at_time", "FIELD")) for m in timed]
    lines += ["};", "#endif", "", "#endif", ""]
    return lines


def check_unique(lines):
    """Every generated name once (a message and field could spell another's)."""
    seen = set()
    for line in lines:
        match = re.match(r"(?:#define (THR_\w+)|THR_ACCESSOR [\w ]+?\*?(thr_\w+)\()", line)
        if match:
            symbol = match.group(1) or match.group(2)
            assert symbol not in seen, "generated twice: " + symbol
            seen.add(symbol)


def main():
    spec = json.load(open(sys.argv[1]))
    messages = messages_header(spec)
    check_unique(messages)
    open(sys.argv[2], "w").write("\n".join(messages))
    open(sys.argv[3], "w").write("\n".join(wire_header(spec)))


if __name__ == "__main__":
    main()

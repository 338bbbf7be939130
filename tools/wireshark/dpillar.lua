-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark/tshark dissector for dpillar frames: ethertype 0x88B5, the
-- wire format of include/uapi/linux/dpillar_packet.h (described in
-- Documentation/networking/dpillar.rst, "Wire format", "Hello", "Path
-- probes"; dpillar-design.rst, "Shortcut discovery", "Plan mode in the
-- data path").
--
-- Install: copy to Wireshark's Lua plugin directory ("make install-tools"
-- does; "tshark -G folders" names it), or load it for one run:
--     tshark -X lua_script:dpillar.lua -r capture.pcap
-- Filters: dpillar, dpillar.type == 2, dpillar.node == 5 (any node id
-- field: src, dst, waypoint, reporter, sender, a Hello's neighbours);
-- with the preferences topology DPillar, n and k (Edit > Preferences >
-- Protocols > DPILLAR, or tshark -o dpillar.topology:DPillar -o
-- dpillar.n:48 -o dpillar.k:4), each id also as its
-- DPillar address: dpillar.addr == "1:3.17.0.22".
--
-- Frames off the wire are untrusted: every field is read only after its
-- bytes were checked to be there, and a frame that is cut short or breaks
-- a rule of the format gets expert info (Analyze > Expert Information,
-- or the filter "_ws.expert.group == malformed"), never a Lua error.

local ETHERTYPE = 0x88b5
local HDR_LEN = 20
local HELLO_LEN = 8
local PROBE_LEN = 24
local SHORTCUT_LEN = 8
local TLV_MAX = 1024		-- DPILLAR_HELLO_TLV_MAX
local COORDS_MAX = 8		-- DPILLAR_TLV_COORDS_MAX
local NEIGHS_MAX = 16		-- DPILLAR_TLV_NEIGHS_MAX
local NODE_NONE = 0xffffffff
local S2_FL_COORDS = 0x20	-- S2's "coordinates follow" flag

local T_DATA, T_HELLO, T_PROBE, T_PROBE_REPLY = 1, 2, 3, 4
local T_SC_PROBE, T_SC_REPLY = 5, 6
-- Data on discovered shortcuts (the discovery fallback): a DATA frame
-- whose flags are 0 and whose rword is its remaining hop budget.
local T_SC_DATA = 7

local types = {
	[T_DATA] = "Data",
	[T_HELLO] = "Hello",
	[T_PROBE] = "Probe",
	[T_PROBE_REPLY] = "Probe reply",
	[T_SC_PROBE] = "Shortcut probe",
	[T_SC_REPLY] = "Shortcut reply",
	[T_SC_DATA] = "Shortcut data",
}
local protos = { [0x0800] = "IPv4", [0x86dd] = "IPv6" }
local proto_names = { [0] = "none", [0x0800] = "IPv4", [0x86dd] = "IPv6" }
local tlv_types = {
	[1] = "PORTS_UP",
	[2] = "COORDS",
	[3] = "NEIGHS",
	[4] = "NEIGH_COORDS",
}
local probe_status = {
	[0] = "none (a probe)",
	[1] = "REACHED",
	[2] = "TTL",
	[3] = "NOROUTE",
	[4] = "NONEIGH",
}

-- DPILLAR_NEIGH_STATE_* (a reply's neighbour table)
local neigh_state = {
	[1] = "reachable",
	[2] = "unreachable",
	[3] = "miswired",
}

local p = Proto("dpillar", "dpillar fabric")

-- The topology, which owns the header's flags and rword: "auto" decodes
-- S2's flags when the frame carries S2 coordinates.
local TOPO_AUTO, TOPO_S2, TOPO_DPILLAR, TOPO_OTHER = 0, 1, 2, 3
p.prefs.topology = Pref.enum("Topology of the fabric",
	TOPO_AUTO, "Which topology owns the header's flags and rword " ..
	"(auto: S2 when S2 plan-mode coordinates follow the header)", {
		{ 1, "auto", TOPO_AUTO },
		{ 2, "S2", TOPO_S2 },
		{ 3, "DPillar", TOPO_DPILLAR },
		{ 4, "other (DCell, XDCent, BCube)", TOPO_OTHER },
	}, false)

-- DPillar's n and k: the frames do not carry them, so node ids can be
-- shown as DPillar addresses (C:v_{k-1}...v_0, as dpctl and dpsim print
-- them, e.g. 1:3.17.0.22) only when the preferences give them.
p.prefs.n = Pref.uint("DPillar n (switch ports)", 0,
	"With topology DPillar: n, to show node ids as DPillar addresses " ..
	"(C:v_{k-1}...v_0, dpctl addr's form) beside the ids; 0: ids only")
p.prefs.k = Pref.uint("DPillar k (columns)", 0,
	"With topology DPillar: k, to show node ids as DPillar addresses; " ..
	"0: ids only")

-- The DPillar address of node id v (topo_dpillar.c: dpp_addr_format()),
-- or nil when the preferences do not name a DPillar fabric of n, k
-- (the kernel's bounds: n even, 4..256; k >= 2; k*(n/2)^k ids) or v is
-- not one of its ids.
local function dpillar_addr(v)
	local n, k = p.prefs.n, p.prefs.k
	if p.prefs.topology ~= TOPO_DPILLAR or n < 4 or n > 256 or
	   n % 2 ~= 0 or k < 2 or k > 32 or v == NODE_NONE then
		return nil
	end
	local h = n / 2
	local nlabels = h ^ k
	if v >= k * nlabels then
		return nil
	end
	local column = math.floor(v / nlabels)
	local l = v - column * nlabels
	local sym = {}
	for i = 1, k do
		sym[k - i + 1] = string.format("%d", l % h)
		l = math.floor(l / h)
	end
	return string.format("%d", column) .. ":" .. table.concat(sym, ".")
end

local function node_str(v)
	if v == NODE_NONE then
		return "none"
	end
	return dpillar_addr(v) or tostring(v)
end

local pf = {
	version = ProtoField.uint8("dpillar.version", "Version"),
	type = ProtoField.uint8("dpillar.type", "Type", base.DEC, types),
	ttl = ProtoField.uint8("dpillar.ttl", "TTL"),
	flags = ProtoField.uint8("dpillar.flags", "Flags", base.HEX),
	proto = ProtoField.uint16("dpillar.proto", "Payload ethertype",
		base.HEX, proto_names),
	rword = ProtoField.uint16("dpillar.rword", "Routing word", base.HEX),
	src = ProtoField.uint32("dpillar.src", "Source node"),
	dst = ProtoField.uint32("dpillar.dst", "Destination node"),
	waypoint = ProtoField.uint32("dpillar.waypoint", "Waypoint node"),
	node = ProtoField.uint32("dpillar.node", "Node"),
	-- DPillar's address of each node id field (preferences n and k)
	addr = ProtoField.string("dpillar.addr", "Address"),

	-- S2's flags (topo_s2.c)
	s2_sel = ProtoField.uint8("dpillar.s2.rule", "S2 routing rule",
		base.DEC, nil, 0x03),
	s2_first = ProtoField.bool("dpillar.s2.first", "Hashed first hop", 8,
		nil, 0x04),
	s2_shortcut = ProtoField.bool("dpillar.s2.shortcut",
		"Shortcut phase", 8, nil, 0x08),
	s2_key = ProtoField.bool("dpillar.s2.key", "Destination is a key id",
		8, nil, 0x10),
	s2_coords = ProtoField.bool("dpillar.s2.coords", "Coordinates follow",
		8, nil, 0x20),
	-- above 255 nodes: the word is the TTL renewal count (s2_ttl_renew())
	s2_ext = ProtoField.bool("dpillar.s2.ext",
		"Routing word is a TTL renewal count", 8, nil, 0x40),
	-- DPillar's flags (topo_dpillar.h)
	dp_ccw = ProtoField.bool("dpillar.dp.ccw",
		"Helix counter-clockwise", 8, nil, 0x01),
	dp_uturn = ProtoField.bool("dpillar.dp.uturn", "Direction changed",
		8, nil, 0x02),
	dp_ring_rev = ProtoField.bool("dpillar.dp.ring_rev",
		"Ring direction reversed", 8, nil, 0x04),
	dp_ring_ccw = ProtoField.bool("dpillar.dp.ring_ccw",
		"Ring counter-clockwise", 8, nil, 0x08),
	dp_tunnels = ProtoField.uint8("dpillar.dp.tunnels", "Tunnels taken",
		base.DEC, nil, 0x70),
	dp_shortest = ProtoField.bool("dpillar.dp.shortest",
		"Shortest mode", 8, nil, 0x80),
	dp_detours = ProtoField.uint8("dpillar.dp.detours", "Detours taken",
		base.DEC, nil, 0x0f),
	dp_local = ProtoField.bool("dpillar.dp.local",
		"Last detour was local", 8, nil, 0x10),

	-- struct dpillar_coords
	coords = ProtoField.none("dpillar.coords", "Coordinates"),
	coords_count = ProtoField.uint8("dpillar.coords.count", "Count"),
	coords_reserved = ProtoField.bytes("dpillar.coords.reserved",
		"Reserved"),
	coords_x = ProtoField.uint32("dpillar.coords.x", "Coordinate"),

	-- struct dpillar_hello and its TLVs
	hello = ProtoField.none("dpillar.hello", "Hello"),
	hello_port = ProtoField.uint8("dpillar.hello.port", "Sender's port"),
	hello_reserved = ProtoField.uint8("dpillar.hello.reserved",
		"Reserved"),
	hello_tlv_len = ProtoField.uint16("dpillar.hello.tlv_len",
		"TLV bytes"),
	hello_interval = ProtoField.uint32("dpillar.hello.interval_ms",
		"Hello interval (ms)"),
	tlv = ProtoField.none("dpillar.tlv", "TLV"),
	tlv_type = ProtoField.uint16("dpillar.tlv.type", "Type", base.DEC,
		tlv_types),
	tlv_len = ProtoField.uint16("dpillar.tlv.len", "Length"),
	tlv_ports_up = ProtoField.uint32("dpillar.tlv.ports_up",
		"Ports up (bitmap)", base.HEX),
	tlv_coord = ProtoField.uint32("dpillar.tlv.coord", "Coordinate"),
	tlv_neigh = ProtoField.uint32("dpillar.tlv.neigh", "Neighbour"),
	tlv_neigh_coord = ProtoField.uint32("dpillar.tlv.neigh_coord",
		"Neighbour's coordinate"),
	tlv_value = ProtoField.bytes("dpillar.tlv.value", "Value"),
	tlv_padding = ProtoField.bytes("dpillar.tlv.padding", "Padding"),

	-- struct dpillar_probe
	probe = ProtoField.none("dpillar.probe", "Probe"),
	probe_status = ProtoField.uint8("dpillar.probe.status", "Status",
		base.DEC, probe_status),
	probe_reason = ProtoField.uint8("dpillar.probe.reason",
		"NOROUTE reason"),
	probe_id = ProtoField.uint16("dpillar.probe.id", "Id"),
	probe_id_kernel = ProtoField.bool("dpillar.probe.id_kernel",
		"In-kernel user (path selection)", 16, nil, 0x8000),
	probe_seq = ProtoField.uint16("dpillar.probe.seq", "Sequence"),
	probe_ttl = ProtoField.uint8("dpillar.probe.ttl", "Sent with TTL"),
	probe_hops = ProtoField.uint8("dpillar.probe.hops", "Hops"),
	probe_reporter = ProtoField.uint32("dpillar.probe.reporter",
		"Reporter"),
	probe_detours = ProtoField.uint8("dpillar.probe.detours", "Detours"),
	probe_flags = ProtoField.uint8("dpillar.probe.flags", "Flags",
		base.HEX),
	probe_f_neighs = ProtoField.bool("dpillar.probe.flags.neighs",
		"Neighbour table (asked; in a reply: follows)", 8, nil, 0x01),
	probe_reserved = ProtoField.bytes("dpillar.probe.reserved",
		"Reserved"),
	-- struct dpillar_probe_neighs, struct dpillar_probe_neigh
	pn = ProtoField.none("dpillar.probe.neighs", "Neighbour table"),
	pn_nports = ProtoField.uint8("dpillar.probe.neighs.nports", "Ports"),
	pn_count = ProtoField.uint8("dpillar.probe.neighs.count", "Entries"),
	pn_trunc = ProtoField.bool("dpillar.probe.neighs.truncated",
		"Truncated", 8, nil, 0x01),
	pn_reserved = ProtoField.uint8("dpillar.probe.neighs.reserved",
		"Reserved"),
	pn_ports_up = ProtoField.uint32("dpillar.probe.neighs.ports_up",
		"Ports up", base.HEX),
	pn_entry = ProtoField.none("dpillar.probe.neigh", "Neighbour"),
	pn_port = ProtoField.uint8("dpillar.probe.neigh.port", "Port"),
	pn_peer_port = ProtoField.uint8("dpillar.probe.neigh.peer_port",
		"Its port"),
	pn_state = ProtoField.uint8("dpillar.probe.neigh.state", "State",
		base.DEC, neigh_state),
	pn_ereserved = ProtoField.uint8("dpillar.probe.neigh.reserved",
		"Reserved"),
	pn_node = ProtoField.uint32("dpillar.probe.neigh.node", "Node"),
	probe_stamp = ProtoField.uint64("dpillar.probe.stamp", "Stamp",
		base.HEX),

	-- struct dpillar_shortcut
	sc = ProtoField.none("dpillar.shortcut", "Shortcut discovery"),
	sc_sender = ProtoField.uint32("dpillar.shortcut.sender", "Sender"),
	sc_hops = ProtoField.uint8("dpillar.shortcut.hops", "Hops"),
	sc_reserved = ProtoField.bytes("dpillar.shortcut.reserved",
		"Reserved"),
}
local field_list = {}
for _, f in pairs(pf) do
	field_list[#field_list + 1] = f
end
p.fields = field_list

-- Expert info: key, field, text, group, severity.
local ex, ex_list = {}, {}
for _, e in ipairs({
	{ "truncated", "truncated", "Frame cut short", "MALFORMED", "ERROR" },
	{ "version", "bad_version", "Unknown version (receivers drop it)",
		"PROTOCOL", "WARN" },
	{ "type", "bad_type", "Reserved type (receivers drop it: drop_type)",
		"PROTOCOL", "WARN" },
	{ "proto", "bad_proto",
		"Data frame whose payload is neither IPv4 nor IPv6",
		"PROTOCOL", "WARN" },
	{ "tlv", "bad_tlv",
		"Malformed Hello TLVs (receivers drop the Hello: hello_bad)",
		"MALFORMED", "ERROR" },
	{ "tlv_unknown", "unknown_tlv", "Unknown TLV type (receivers skip it)",
		"UNDECODED", "NOTE" },
	{ "coords", "bad_coords",
		"Malformed coordinates block (count 0 or above 8)",
		"MALFORMED", "ERROR" },
	{ "payload", "bad_payload", "Inner packet malformed or cut short",
		"MALFORMED", "ERROR" },
	{ "ttl", "ttl_zero", "TTL 0: no relay sends this (drop_ttl)",
		"SEQUENCE", "WARN" },
}) do
	ex[e[1]] = ProtoExpert.new("dpillar." .. e[2], e[3],
		expert.group[e[4]], expert.severity[e[5]])
	ex_list[#ex_list + 1] = ex[e[1]]
end
p.experts = ex_list

local ethertype_table = DissectorTable.get("ethertype")
local data_dissector = Dissector.get("data")

-- have(tvb, tree, off, n, what): the n bytes at off are in the capture;
-- else an expert item on tree saying what is cut short, and false.
local function have(tvb, tree, off, n, what)
	if off + n <= tvb:len() then
		return true
	end
	local why
	if tvb:len() < tvb:reported_length_remaining() then
		why = "capture cut at " .. tvb:len() .. " of " ..
			tvb:reported_length_remaining() .. " bytes"
	else
		why = "frame ends at " .. tvb:len() .. " bytes"
	end
	tree:add_proto_expert_info(ex.truncated, what .. ": needs " .. n ..
		" bytes at offset " .. off .. ", " .. why)
	return false
end

-- A node id field, and the same value as dpillar.node.
local function add_node(tree, field, range)
	local item = tree:add(field, range)
	local v = range:uint()
	local a = dpillar_addr(v)
	if a then
		item:append_text(" (" .. a .. ")")
		item:add(pf.addr, range, a):set_generated()
	end
	if v ~= NODE_NONE then
		tree:add(pf.node, range):set_hidden()
	else
		item:append_text(" (none)")
	end
	return item, v
end

-- add_fields(tree, tvb, off, layout): the fields of a struct at off,
-- each { field, offset, length [, true: a node id] }.
local function add_fields(tree, tvb, off, layout)
	for _, f in ipairs(layout) do
		if f[4] then
			add_node(tree, f[1], tvb(off + f[2], f[3]))
		else
			tree:add(f[1], tvb(off + f[2], f[3]))
		end
	end
end

-- add_struct(tvb, tree, off, len, what, field, layout): a subtree field
-- over the len bytes at off with the fields of layout (add_fields); nil,
-- with expert info naming what, when they are cut short.
local function add_struct(tvb, tree, off, len, what, field, layout)
	if not have(tvb, tree, off, len, what) then
		return nil
	end
	local t = tree:add(field, tvb(off, len))
	add_fields(t, tvb, off, layout)
	return t
end

-- coords_look(tvb, off): a plausible struct dpillar_coords at off (count
-- 1..8, reserved zero, every coordinate in the capture).
local function coords_look(tvb, off)
	if off + 4 > tvb:len() then
		return false
	end
	local n = tvb(off, 1):uint()
	return n >= 1 and n <= COORDS_MAX and tvb(off + 1, 3):uint() == 0 and
		off + 4 + 4 * n <= tvb:len()
end

-- add_coords(tvb, tree, off, label): struct dpillar_coords at off;
-- returns the offset after it and the coordinates as "x,y", or nil when
-- it is malformed or cut short (expert info added).
local function add_coords(tvb, tree, off, label)
	if not have(tvb, tree, off, 4, label) then
		return nil
	end
	local n = tvb(off, 1):uint()
	local len = 4 + 4 * n
	local avail = math.min(len, tvb:len() - off)
	local t = tree:add(pf.coords, tvb(off, avail))
	t:set_text(label)
	t:add(pf.coords_count, tvb(off, 1))
	t:add(pf.coords_reserved, tvb(off + 1, 3))
	if n == 0 or n > COORDS_MAX then
		t:add_proto_expert_info(ex.coords, label .. ": count " .. n)
		return nil
	end
	if not have(tvb, t, off + 4, 4 * n, label) then
		return nil
	end
	local xs = {}
	for i = 0, n - 1 do
		local r = tvb(off + 4 + 4 * i, 4)
		t:add(pf.coords_x, r)
		xs[#xs + 1] = tostring(r:uint())
	end
	local s = table.concat(xs, ",")
	t:append_text(": (" .. s .. ")")
	return off + len, s
end

-- The flags item ft's bits, as topology topo defines them.
local function add_flags(ft, flags_r, topo)
	local name, bits
	if topo == TOPO_S2 then
		name, bits = "S2", { pf.s2_sel, pf.s2_first, pf.s2_shortcut,
			pf.s2_key, pf.s2_coords, pf.s2_ext }
	elseif topo == TOPO_DPILLAR and bit32.band(flags_r:uint(), 0x80) ~= 0 then
		-- the routing word is then a flow hash
		name, bits = "DPillar, shortest mode", { pf.dp_detours,
			pf.dp_local, pf.dp_shortest }
	elseif topo == TOPO_DPILLAR then
		name, bits = "DPillar, paper mode", { pf.dp_ccw, pf.dp_uturn,
			pf.dp_ring_rev, pf.dp_ring_ccw, pf.dp_tunnels,
			pf.dp_shortest }
	else
		return
	end
	ft:append_text(" (" .. name .. ")")
	for _, f in ipairs(bits) do
		ft:add(f, flags_r)
	end
end

-- Hello TLVs at off, tlv_len bytes; the checks of dp_hello_parse().
local function dissect_tlvs(tvb, tree, off, tlv_len)
	local stop = off + tlv_len
	local seen, counts = {}, {}
	local nc_len
	while off < stop do
		if stop - off < 4 then
			tree:add_proto_expert_info(ex.tlv, "TLV header runs past tlv_len")
			return
		end
		if not have(tvb, tree, off, 4, "TLV header") then
			return
		end
		local typ = tvb(off, 2):uint()
		local vlen = tvb(off + 2, 2):uint()
		local avail = math.min(4 + vlen, tvb:len() - off)
		local t = tree:add(pf.tlv, tvb(off, avail))
		t:set_text("TLV " .. (tlv_types[typ] or tostring(typ)) ..
			", " .. vlen .. " bytes")
		t:add(pf.tlv_type, tvb(off, 2))
		t:add(pf.tlv_len, tvb(off + 2, 2))
		if vlen > stop - off - 4 then
			t:add_proto_expert_info(ex.tlv, "value runs past tlv_len")
			return
		end
		if not have(tvb, t, off + 4, vlen, "TLV value") then
			return
		end
		local v = off + 4
		if tlv_types[typ] and seen[typ] then
			t:add_proto_expert_info(ex.tlv, tlv_types[typ] .. " twice")
		end
		seen[typ] = true
		if typ == 1 then
			if vlen ~= 4 then
				t:add_proto_expert_info(ex.tlv, "PORTS_UP of " .. vlen ..
					" bytes, not 4")
				t:add(pf.tlv_value, tvb(v, vlen))
			else
				local r = tvb(v, 4)
				local up = {}
				for b = 0, 31 do
					if bit32.band(r:uint(), bit32.lshift(1, b)) ~= 0 then
						up[#up + 1] = tostring(b)
					end
				end
				t:add(pf.tlv_ports_up, r):append_text(" (ports " ..
					(#up > 0 and table.concat(up, " ") or "none") .. ")")
			end
		elseif typ == 2 or typ == 3 or typ == 4 then
			local field = ({ pf.tlv_coord, pf.tlv_neigh,
				pf.tlv_neigh_coord })[typ - 1]
			local max = ({ COORDS_MAX, NEIGHS_MAX,
				NEIGHS_MAX * COORDS_MAX })[typ - 1]
			if vlen % 4 ~= 0 or vlen / 4 > max or
			   (typ == 2 and vlen == 0) then
				t:add_proto_expert_info(ex.tlv, tlv_types[typ] .. " of " ..
					vlen .. " bytes")
			end
			for i = 0, math.floor(vlen / 4) - 1 do
				if typ == 3 then
					add_node(t, field, tvb(v + 4 * i, 4))
				else
					t:add(field, tvb(v + 4 * i, 4))
				end
			end
			counts[typ] = math.floor(vlen / 4)
			if typ == 4 then
				nc_len = vlen
			end
		elseif vlen > 0 then
			t:add_proto_expert_info(ex.tlv_unknown, "type " .. typ)
			t:add(pf.tlv_value, tvb(v, vlen))
		else
			t:add_proto_expert_info(ex.tlv_unknown, "type " .. typ)
		end
		local next = off + bit32.band(4 + vlen + 3, bit32.bnot(3))
		local pad = math.min(next, stop) - (v + vlen)
		if pad > 0 and have(tvb, t, v + vlen, pad, "TLV padding") then
			t:add(pf.tlv_padding, tvb(v + vlen, pad))
		end
		off = next
	end
	if nc_len and nc_len ~= 4 * (counts[3] or 0) * (counts[2] or 0) then
		tree:add_proto_expert_info(ex.tlv, "NEIGH_COORDS of " .. nc_len ..
			" bytes, not 4 x NEIGHS' " .. (counts[3] or 0) ..
			" x COORDS' " .. (counts[2] or 0))
	end
end

local function dissect_hello(tvb, pinfo, tree, off)
	local t = add_struct(tvb, tree, off, HELLO_LEN, "Hello", pf.hello, {
		{ pf.hello_port, 0, 1 }, { pf.hello_reserved, 1, 1 },
		{ pf.hello_interval, 4, 4 } })
	if not t then
		return
	end
	local tlv_len = tvb(off + 2, 2):uint()
	local lenitem = t:add(pf.hello_tlv_len, tvb(off + 2, 2))
	pinfo.cols.info:append(" port " .. tvb(off, 1):uint())
	off = off + HELLO_LEN
	if tlv_len > TLV_MAX then
		lenitem:add_proto_expert_info(ex.tlv, "tlv_len " .. tlv_len ..
			" above " .. TLV_MAX)
		return
	end
	if tlv_len > tvb:reported_length_remaining() - off then
		lenitem:add_proto_expert_info(ex.tlv, "tlv_len " .. tlv_len ..
			" beyond the frame")
		return
	end
	if tlv_len > 0 then
		dissect_tlvs(tvb, t, off, tlv_len)
	end
end

-- struct dpillar_probe_neighs at off: a destination's neighbour table.
local function dissect_probe_neighs(tvb, pinfo, tree, off)
	local count = tvb(off + 1, 1):uint()
	local t = add_struct(tvb, tree, off, 8 + 8 * count, "Neighbour table",
		pf.pn, {
		{ pf.pn_nports, 0, 1 }, { pf.pn_count, 1, 1 },
		{ pf.pn_trunc, 2, 1 }, { pf.pn_reserved, 3, 1 },
		{ pf.pn_ports_up, 4, 4 } })
	if not t then
		return
	end
	for i = 0, count - 1 do
		local e = off + 8 + 8 * i
		local et = t:add(pf.pn_entry, tvb(e, 8))
		add_fields(et, tvb, e, {
			{ pf.pn_port, 0, 1 }, { pf.pn_peer_port, 1, 1 },
			{ pf.pn_state, 2, 1 }, { pf.pn_ereserved, 3, 1 },
			{ pf.pn_node, 4, 4, true } })
		et:append_text(": port " .. tvb(e, 1):uint() .. " hears " ..
			node_str(tvb(e + 4, 4):uint()) .. " port " ..
			tvb(e + 1, 1):uint() .. " (" ..
			(neigh_state[tvb(e + 2, 1):uint()] or "?") .. ")")
	end
	pinfo.cols.info:append(", " .. count .. " neighbours")
end

-- struct dpillar_probe at off (then, when the frame carries coordinates,
-- the sender's; in a reply, maybe the destination's neighbour table).
local function dissect_probe(tvb, pinfo, tree, off, hdr_coords)
	if not add_struct(tvb, tree, off, PROBE_LEN, "Probe", pf.probe, {
		{ pf.probe_status, 0, 1 }, { pf.probe_reason, 1, 1 },
		{ pf.probe_id, 2, 2 }, { pf.probe_id_kernel, 2, 2 },
		{ pf.probe_seq, 4, 2 }, { pf.probe_ttl, 6, 1 },
		{ pf.probe_hops, 7, 1 }, { pf.probe_reporter, 8, 4, true },
		{ pf.probe_detours, 12, 1 }, { pf.probe_flags, 13, 1 },
		{ pf.probe_f_neighs, 13, 1 }, { pf.probe_reserved, 14, 2 },
		{ pf.probe_stamp, 16, 8 },
	}) then
		return
	end
	local status = tvb(off, 1):uint()
	if status ~= 0 then
		pinfo.cols.info:append(" " .. (probe_status[status] or
			("status " .. status)) .. " from " ..
			node_str(tvb(off + 8, 4):uint()) .. " (probe ttl " ..
			tvb(off + 6, 1):uint() .. ")")
	end
	local after = off + PROBE_LEN
	if hdr_coords then
		after = add_coords(tvb, tree, after, "Sender's coordinates")
		if not after then
			return
		end
	end
	-- A reply's neighbour table (DPILLAR_PROBE_F_NEIGHS); fewer than 8
	-- bytes behind: a server that echoed the flag without one.
	if status ~= 0 and bit32.band(tvb(off + 13, 1):uint(), 1) ~= 0 and
		after + 8 <= tvb:len() then
		dissect_probe_neighs(tvb, pinfo, tree, after)
	end
end

local function dissect_shortcut(tvb, pinfo, tree, off, typ)
	if not add_struct(tvb, tree, off, SHORTCUT_LEN, "Shortcut discovery",
		pf.sc, {
		{ pf.sc_sender, 0, 4, true }, { pf.sc_hops, 4, 1 },
		{ pf.sc_reserved, 5, 3 } }) then
		return
	end
	pinfo.cols.info:append(" seq " .. tvb(6, 2):uint() ..
		" via " .. tvb(off, 4):uint() .. " hops " .. tvb(off + 4, 1):uint())
	off = off + SHORTCUT_LEN
	-- Plan mode only; elsewhere nothing, or zero Ethernet padding.
	if off + 4 <= tvb:len() and tvb(off, 1):uint() ~= 0 then
		add_coords(tvb, tree, off, typ == T_SC_PROBE and
			"Prober's coordinates" or "Destination's coordinates")
	end
end

function p.dissector(tvb, pinfo, root)
	pinfo.cols.protocol:set("DPILLAR")
	local tree = root:add(p, tvb(0, math.min(HDR_LEN, tvb:len())))
	if not have(tvb, tree, 0, HDR_LEN, "dpillar header") then
		pinfo.cols.info:set("dpillar header cut short")
		return tvb:len()
	end
	local ver = tvb(0, 1):uint()
	local typ = tvb(1, 1):uint()
	local ttl = tvb(2, 1):uint()
	local flags = tvb(3, 1):uint()
	local proto = tvb(4, 2):uint()
	local item = tree:add(pf.version, tvb(0, 1))
	if ver ~= 1 then
		item:add_proto_expert_info(ex.version, "version " .. ver)
	end
	item = tree:add(pf.type, tvb(1, 1))
	if not types[typ] then
		item:add_proto_expert_info(ex.type, "type " .. typ)
	end
	item = tree:add(pf.ttl, tvb(2, 1))
	if ttl == 0 then
		item:add_proto_expert_info(ex.ttl)
	end
	local flags_r = tvb(3, 1)
	local flags_item = tree:add(pf.flags, flags_r)
	item = tree:add(pf.proto, tvb(4, 2))
	if (typ == T_DATA or typ == T_SC_DATA) and not protos[proto] then
		item:add_proto_expert_info(ex.proto, string.format("0x%04x", proto))
	end
	tree:add(pf.rword, tvb(6, 2))
	local _, src = add_node(tree, pf.src, tvb(8, 4))
	local _, dst = add_node(tree, pf.dst, tvb(12, 4))
	local _, wp = add_node(tree, pf.waypoint, tvb(16, 4))

	local off = HDR_LEN
	local topo = p.prefs.topology
	-- Routed frames of S2 plan mode carry the destination's coordinates
	-- behind the header when flags has 0x20 (S2's bit: other topologies
	-- use it for their own state; auto looks at what follows).
	local hdr_coords = false
	if (typ == T_DATA or typ == T_PROBE or typ == T_PROBE_REPLY) and
	   bit32.band(flags, S2_FL_COORDS) ~= 0 then
		if topo == TOPO_S2 then
			hdr_coords = true
		elseif topo == TOPO_AUTO and coords_look(tvb, off) then
			local after = off + 4 + 4 * tvb(off, 1):uint()
			if typ == T_DATA then
				local v = after < tvb:len() and
					bit32.rshift(tvb(after, 1):uint(), 4)
				hdr_coords = (proto == 0x0800 and v == 4) or
					(proto == 0x86dd and v == 6)
			else
				hdr_coords = after + PROBE_LEN <= tvb:len()
			end
		end
	end
	if topo == TOPO_AUTO and hdr_coords then
		topo = TOPO_S2
	end
	add_flags(flags_item, flags_r, topo)

	local info = (types[typ] or ("type " .. typ)) .. " " .. node_str(src) ..
		" -> " ..
		(typ == T_HELLO and dst == NODE_NONE and "*" or node_str(dst))
	if wp ~= NODE_NONE then
		info = info .. " via " .. node_str(wp)
	end
	info = info .. " ttl " .. ttl
	pinfo.cols.info:set(info)
	tree:append_text(", " .. info)

	if hdr_coords then
		off = add_coords(tvb, tree, off, "Destination's coordinates")
		if not off then
			return tvb:len()
		end
	end
	if ver ~= 1 then
		-- A later version's payload is unknown.
		if off < tvb:len() then
			data_dissector:call(tvb(off):tvb(), pinfo, root)
		end
		return tvb:len()
	end
	if typ == T_DATA or typ == T_SC_DATA then
		if off >= tvb:len() then
			have(tvb, tree, off, 1, "Data payload")
			return tvb:len()
		end
		pinfo.cols.info:append(", ")
		pinfo.cols.info:fence()
		local payload = tvb(off):tvb()
		if not protos[proto] then
			data_dissector:call(payload, pinfo, root)
			return tvb:len()
		end
		-- The IP dissectors raise an exception for a packet cut short;
		-- through Lua it is an error, caught here.
		local done, err = pcall(ethertype_table.try, ethertype_table,
			proto, payload, pinfo, root)
		if not done then
			tree:add_proto_expert_info(ex.payload, protos[proto] ..
				" packet: " .. tostring(err):gsub("^.*: ", ""))
		end
	elseif typ == T_HELLO then
		dissect_hello(tvb, pinfo, tree, off)
	elseif typ == T_PROBE or typ == T_PROBE_REPLY then
		dissect_probe(tvb, pinfo, tree, off, hdr_coords)
	elseif typ == T_SC_PROBE or typ == T_SC_REPLY then
		dissect_shortcut(tvb, pinfo, tree, off, typ)
	elseif off < tvb:len() then
		data_dissector:call(tvb(off):tvb(), pinfo, root)
	end
	return tvb:len()
end

DissectorTable.get("ethertype"):add(ETHERTYPE, p)

name: futex_ping_spin
ID: 180
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:unsigned long uaddr;	offset:8;	size:8;	signed:0;
	field:u64 ns;	offset:16;	size:8;	signed:0;
	field:int reason;	offset:24;	size:4;	signed:1;

print fmt: "uaddr=0x%lx reason=%s ns=%llu", REC->uaddr, __print_symbolic(REC->reason, { 0, "took" }, { 1, "free" }, { 2, "no_owner" }, { 3, "owner_changed" }, { 4, "owner_died" }, { 5, "owner_sleeps" }, { 6, "resched" }, { 7, "signal" }, { 8, "timeout" }, { 9, "budget" }, { 10, "fault" }), REC->ns

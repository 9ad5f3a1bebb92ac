name: futex_ping_wait
ID: 179
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:unsigned long uaddr;	offset:8;	size:8;	signed:0;
	field:u64 waited_ns;	offset:16;	size:8;	signed:0;
	field:u32 uval;	offset:24;	size:4;	signed:0;
	field:int look;	offset:28;	size:4;	signed:1;

print fmt: "uaddr=0x%lx look=%s uval=0x%08x waited_ns=%llu", REC->uaddr, __print_symbolic(REC->look, { 0, "handoff" }, { 1, "took" }, { 2, "sleep" }, { 3, "walk" }, { 4, "retry" }, { 5, "timeout" }, { 6, "signal" }, { 7, "error" }), REC->uval, REC->waited_ns

name: futex_ping_lock
ID: 182
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:unsigned long uaddr;	offset:8;	size:8;	signed:0;
	field:int how;	offset:16;	size:4;	signed:1;

print fmt: "uaddr=0x%lx how=%s", REC->uaddr, __print_symbolic(REC->how, { 0, "free" }, { 1, "woken" }, { 2, "handoff" }, { 3, "owner_died" }, { 4, "spin" })

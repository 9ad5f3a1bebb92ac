name: futex_ping_unlock
ID: 181
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:unsigned long uaddr;	offset:8;	size:8;	signed:0;
	field:int how;	offset:16;	size:4;	signed:1;
	field:int why;	offset:20;	size:4;	signed:1;
	field:pid_t next;	offset:24;	size:4;	signed:1;
	field:int next_state;	offset:28;	size:4;	signed:1;

print fmt: "uaddr=0x%lx how=%s why=%s next=%d next_state=%s", REC->uaddr, __print_symbolic(REC->how, { 0, "free" }, { 1, "wake" }, { 2, "wake_donor" }, { 3, "handoff" }, { 4, "handoff_donor" }, { 5, "release" }), __print_symbolic(REC->why, { 0, "none" }, { 1, "fair" }, { 2, "rt" }, { 3, "waited" }), REC->next, __print_symbolic(REC->next_state, { 0, "none" }, { 1, "asleep" }, { 2, "queued" }, { 3, "woken" }, { 4, "running" })

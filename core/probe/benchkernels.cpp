// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/benchkernels.h"

namespace clusterplanner::core::probe {

// Hand-written PTX, kept small enough to read: the driver JIT-compiles it for whatever GPU is present.
const char* const kBasicKernelsPtx = R"ptx(
.version 6.0
.target sm_50
.address_size 64

.visible .entry copy_v4(.param .u64 dst, .param .u64 src, .param .u32 n16)
{
    .reg .pred %p;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [dst];
    ld.param.u64 %rd2, [src];
    ld.param.u32 %r1, [n16];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.u32 %r5, %r2, %r3, %r4;
    mov.u32 %r6, %nctaid.x;
    mul.lo.u32 %r6, %r6, %r3;
$L_copy:
    setp.ge.u32 %p, %r5, %r1;
    @%p bra $L_copy_done;
    mul.wide.u32 %rd3, %r5, 16;
    add.u64 %rd4, %rd2, %rd3;
    ld.global.v4.u32 {%r7, %r8, %r9, %r10}, [%rd4];
    add.u64 %rd5, %rd1, %rd3;
    st.global.v4.u32 [%rd5], {%r7, %r8, %r9, %r10};
    add.u32 %r5, %r5, %r6;
    bra $L_copy;
$L_copy_done:
    ret;
}

.visible .entry fma_f32(.param .u64 out, .param .u32 iterations)
{
    .reg .pred %p;
    .reg .b32 %r<8>;
    .reg .f32 %f<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [iterations];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.u32 %r5, %r2, %r3, %r4;
    cvt.rn.f32.u32 %f1, %r4;
    add.f32 %f2, %f1, 0f3F800000;
    add.f32 %f3, %f1, 0f40000000;
    add.f32 %f4, %f1, 0f40400000;
    add.f32 %f5, %f1, 0f40800000;
    add.f32 %f6, %f1, 0f40A00000;
    add.f32 %f7, %f1, 0f40C00000;
    add.f32 %f8, %f1, 0f40E00000;
    mov.f32 %f9, 0f3F7FFFEF;
    mov.f32 %f10, 0f3A83126F;
$L_fma:
    fma.rn.f32 %f1, %f1, %f9, %f10;
    fma.rn.f32 %f2, %f2, %f9, %f10;
    fma.rn.f32 %f3, %f3, %f9, %f10;
    fma.rn.f32 %f4, %f4, %f9, %f10;
    fma.rn.f32 %f5, %f5, %f9, %f10;
    fma.rn.f32 %f6, %f6, %f9, %f10;
    fma.rn.f32 %f7, %f7, %f9, %f10;
    fma.rn.f32 %f8, %f8, %f9, %f10;
    sub.u32 %r1, %r1, 1;
    setp.ne.u32 %p, %r1, 0;
    @%p bra $L_fma;
    add.f32 %f1, %f1, %f2;
    add.f32 %f3, %f3, %f4;
    add.f32 %f5, %f5, %f6;
    add.f32 %f7, %f7, %f8;
    add.f32 %f1, %f1, %f3;
    add.f32 %f5, %f5, %f7;
    add.f32 %f1, %f1, %f5;
    mul.wide.u32 %rd2, %r5, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.f32 [%rd3], %f1;
    ret;
}
)ptx";

const char* const kTensorKernelsPtx = R"ptx(
.version 7.0
.target sm_80
.address_size 64

.visible .entry mma_f16(.param .u64 out, .param .u32 iterations)
{
    .reg .pred %p;
    .reg .b32 %r<12>;
    .reg .f32 %f<20>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [iterations];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.u32 %r5, %r2, %r3, %r4;
    mov.b32 %r6, 0x3C003C00;
    mov.b32 %r7, 0x3C003C00;
    mov.f32 %f1, 0f00000000;
    mov.f32 %f2, 0f00000000;
    mov.f32 %f3, 0f00000000;
    mov.f32 %f4, 0f00000000;
    mov.f32 %f5, 0f00000000;
    mov.f32 %f6, 0f00000000;
    mov.f32 %f7, 0f00000000;
    mov.f32 %f8, 0f00000000;
    mov.f32 %f9, 0f00000000;
    mov.f32 %f10, 0f00000000;
    mov.f32 %f11, 0f00000000;
    mov.f32 %f12, 0f00000000;
    mov.f32 %f13, 0f00000000;
    mov.f32 %f14, 0f00000000;
    mov.f32 %f15, 0f00000000;
    mov.f32 %f16, 0f00000000;
$L_mma:
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r6, %r7, %r6, %r7}, {%r6, %r7}, {%f1, %f2, %f3, %f4};
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, {%r6, %r7, %r6, %r7}, {%r6, %r7}, {%f5, %f6, %f7, %f8};
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f9, %f10, %f11, %f12}, {%r6, %r7, %r6, %r7}, {%r6, %r7}, {%f9, %f10, %f11, %f12};
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f13, %f14, %f15, %f16}, {%r6, %r7, %r6, %r7}, {%r6, %r7}, {%f13, %f14, %f15, %f16};
    sub.u32 %r1, %r1, 1;
    setp.ne.u32 %p, %r1, 0;
    @%p bra $L_mma;
    add.f32 %f1, %f1, %f5;
    add.f32 %f9, %f9, %f13;
    add.f32 %f1, %f1, %f9;
    mul.wide.u32 %rd2, %r5, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.f32 [%rd3], %f1;
    ret;
}
)ptx";

} // namespace clusterplanner::core::probe

//! Known answers from the PTX ISA: `shfl.sync` modes (§9.7.8.6's
//! pseudocode), `ldmatrix` fragments (§9.7.14.5.15, figure "ldmatrix
//! fragments"), `mma.sync.m16n8k16` (§9.7.14.5.8: the test kernel loads
//! its fragments with the addresses of the ISA's tables, so a simulator
//! that places elements elsewhere computes a different product) and the
//! `wgmma` shared-memory descriptor layouts (§9.7.15.5.1.2).

mod common;

use common::*;
use floors_ptx_sim::Checks;
use half::bf16;

#[test]
fn shfl_sync_modes_follow_the_isa_pseudocode() {
    let (out, _) = launch(include_str!("ptx/shfl.ptx"), "shfl", [1, 1, 1], [32, 1, 1], &[output(6 * 128)], &[], Checks::ALL).unwrap();
    let v = to_u32(&out[0]);
    let at = |k: usize, lane: usize| v[32 * k + lane];
    for lane in 0..32u32 {
        let l = lane as usize;
        // up 1, c = 0: lanes below 1 keep their own value (and the predicate is false).
        assert_eq!(at(0, l), if lane >= 1 { 10 * (lane - 1) } else { 0 });
        assert_eq!(at(5, l), (lane >= 1) as u32);
        // down 2, c = 31: lanes past 31 keep their own.
        assert_eq!(at(1, l), if lane + 2 <= 31 { 10 * (lane + 2) } else { 10 * lane });
        assert_eq!(at(2, l), 10 * (lane ^ 5));
        assert_eq!(at(3, l), 30);
        // idx 3 in segments of 16 (c = 0x101f): lanes 0-15 read lane 3, 16-31 read lane 19.
        assert_eq!(at(4, l), if lane < 16 { 30 } else { 190 });
    }
}

#[test]
fn ldmatrix_fragments_match_the_isa_figure() {
    // Matrix i, row r, column c holds 64 i + 8 r + c.
    let src: Vec<u8> = (0..256u16).flat_map(|e| e.to_le_bytes()).collect();
    let (out, _) =
        launch(include_str!("ptx/ldmatrix.ptx"), "ldm", [1, 1, 1], [32, 1, 1], &[input(src), output(32 * 32)], &[], Checks::ALL).unwrap();
    let v = to_u32(&out[1]);
    let reg = |lane: usize, k: usize| (v[8 * lane + k] & 0xffff, v[8 * lane + k] >> 16);
    // Hand-read from the figure: lane t holds row t/4, columns 2(t%4) and 2(t%4)+1.
    assert_eq!(reg(0, 0), (0, 1));
    assert_eq!(reg(1, 0), (2, 3));
    assert_eq!(reg(4, 0), (8, 9));
    assert_eq!(reg(5, 2), (128 + 10, 128 + 11));
    assert_eq!(reg(31, 3), (192 + 62, 192 + 63));
    // .trans: lane t holds column t/4, rows 2(t%4) and 2(t%4)+1.
    assert_eq!(reg(0, 4), (0, 8));
    assert_eq!(reg(1, 4), (16, 24));
    assert_eq!(reg(4, 4), (1, 9));
    assert_eq!(reg(31, 7), (192 + 55, 192 + 63));
}

fn bf16_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|&x| bf16::from_f32(x).to_bits().to_le_bytes()).collect()
}

#[test]
fn mma_m16n8k16_bf16_with_isa_fragments_is_the_product() {
    let a: Vec<f32> = (0..256).map(|e| ((e * 7 % 13) as f32 - 6.0) / 4.0).collect();
    let b: Vec<f32> = (0..128).map(|e| ((e * 5 % 11) as f32 - 5.0) / 2.0).collect();
    let (out, stats) = launch(
        include_str!("ptx/mma_bf16.ptx"),
        "mma",
        [1, 1, 1],
        [32, 1, 1],
        &[input(bf16_bytes(&a)), input(bf16_bytes(&b)), output(16 * 8 * 4)],
        &[],
        Checks::ALL,
    )
    .unwrap();
    let d = to_f32(&out[2]);
    for i in 0..16 {
        for j in 0..8 {
            let want: f32 = (0..16).map(|k| a[16 * i + k] * b[8 * k + j]).sum();
            assert_eq!(d[8 * i + j], want, "D[{i}][{j}]");
        }
    }
    assert_eq!(stats.tensor_flops, 2 * 16 * 8 * 16);
}

/// A wgmma kernel over one 64x16 A and 16x8 B tile in shared memory,
/// K-major without swizzle: core matrices (8 rows x 16 bytes) laid out
/// with A's K-neighbour `LBO` bytes apart and its 8-row groups `SBO` apart.
fn wgmma_ptx(lbo: u64, sbo: u64) -> String {
    // Descriptors: start 0 (A) and 2048 (B), fields in 16-byte units.
    let desc = |start: u64, lbo: u64, sbo: u64| (start >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
    format!(
        r#"
.version 8.0
.target sm_90a
.address_size 64

.visible .entry wg(
	.param .u64 wg_a,
	.param .u64 wg_b,
	.param .u64 wg_d
)
{{
	.reg .b32 	%r<12>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<16>;
	.reg .pred 	%p<2>;
	.shared .align 128 .b8 smem[2304];

	ld.param.u64 	%rd1, [wg_a];
	cvta.to.global.u64 	%rd1, %rd1;
	ld.param.u64 	%rd2, [wg_b];
	cvta.to.global.u64 	%rd2, %rd2;
	ld.param.u64 	%rd3, [wg_d];
	cvta.to.global.u64 	%rd3, %rd3;
	mov.u32 	%r1, %tid.x;
	// Thread t copies 16 bytes of the pre-arranged A image (t < 128) and B image (t < 16).
	mul.wide.u32 	%rd4, %r1, 16;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.v4.b32 	{{%r2, %r3, %r4, %r5}}, [%rd5];
	mov.u64 	%rd6, smem;
	add.s64 	%rd7, %rd6, %rd4;
	st.shared.v4.b32 	[%rd7], {{%r2, %r3, %r4, %r5}};
	setp.lt.u32 	%p1, %r1, 16;
	@!%p1 bra 	$L_skip;
	add.s64 	%rd8, %rd2, %rd4;
	ld.global.v4.b32 	{{%r2, %r3, %r4, %r5}}, [%rd8];
	st.shared.v4.b32 	[%rd7+2048], {{%r2, %r3, %r4, %r5}};
$L_skip:
	fence.proxy.async.shared::cta;
	bar.sync 	0;
	mov.f32 	%f0, 0f00000000;
	mov.f32 	%f1, 0f00000000;
	mov.f32 	%f2, 0f00000000;
	mov.f32 	%f3, 0f00000000;
	mov.u64 	%rd9, {da};
	mov.u64 	%rd10, {db};
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {{%f0, %f1, %f2, %f3}}, %rd9, %rd10, 1, 1, 1, 0, 0;
	wgmma.commit_group.sync.aligned;
	wgmma.wait_group.sync.aligned 0;
	// D layout: warp w, lane l, register i: row 16w + l/4 + 8((i/2)%2), column 2(l%4) + (i%2).
	shr.u32 	%r6, %r1, 5;
	and.b32 	%r7, %r1, 31;
	shr.u32 	%r8, %r7, 2;
	shl.b32 	%r6, %r6, 4;
	add.s32 	%r6, %r6, %r8;
	and.b32 	%r9, %r7, 3;
	shl.b32 	%r9, %r9, 1;
	mad.lo.s32 	%r10, %r6, 8, %r9;
	mul.wide.u32 	%rd11, %r10, 4;
	add.s64 	%rd12, %rd3, %rd11;
	st.global.v2.f32 	[%rd12], {{%f0, %f1}};
	st.global.v2.f32 	[%rd12+256], {{%f2, %f3}};
	ret;
}}
"#,
        da = desc(0, lbo, sbo),
        db = desc(2048, 128, 256),
    )
}

/// The shared-memory image of a K-major no-swizzle operand: element (mn, k)
/// at (mn/8)·SBO + (mn%8)·16 + (k/8)·LBO + (k%8)·2 (the canonical layout).
fn k_major_image(rows: usize, get: impl Fn(usize, usize) -> f32, lbo: usize, sbo: usize, bytes: usize) -> Vec<u8> {
    let mut img = vec![0u8; bytes];
    for mn in 0..rows {
        for k in 0..16 {
            let at = (mn / 8) * sbo + (mn % 8) * 16 + (k / 8) * lbo + (k % 8) * 2;
            img[at..at + 2].copy_from_slice(&bf16::from_f32(get(mn, k)).to_bits().to_le_bytes());
        }
    }
    img
}

#[test]
fn wgmma_reads_core_matrices_through_lbo_and_sbo() {
    let a = |m: usize, k: usize| ((m * 3 + k * 5) % 9) as f32 - 4.0;
    let b = |n: usize, k: usize| ((n * 7 + k) % 5) as f32 - 2.0;
    // A: K-neighbour core matrices 128 bytes apart, 8-row groups 256 apart (64 rows: 2048 bytes).
    let (lbo, sbo) = (128, 256);
    let a_img = k_major_image(64, a, lbo, sbo, 2048);
    let b_img = k_major_image(8, b, 128, 256, 256);
    let run = |ptx: &str| {
        launch(ptx, "wg", [1, 1, 1], [128, 1, 1], &[input(a_img.clone()), input(b_img.clone()), output(64 * 8 * 4)], &[], Checks::ALL)
    };
    let (out, _) = run(&wgmma_ptx(lbo as u64, sbo as u64)).unwrap();
    let d = to_f32(&out[2]);
    for m in 0..64 {
        for n in 0..8 {
            let want: f32 = (0..16).map(|k| a(m, k) * b(n, k)).sum();
            assert_eq!(d[8 * m + n], want, "D[{m}][{n}]");
        }
    }
    // LBO and SBO swapped: the same bytes read as another matrix.
    let (out, _) = run(&wgmma_ptx(sbo as u64, lbo as u64)).unwrap();
    assert_ne!(to_f32(&out[2]), d, "swapping LBO and SBO must change the product");
    // Dropping the proxy fence: wgmma would read stale shared memory.
    let e = run(&wgmma_ptx(lbo as u64, sbo as u64).replace("\tfence.proxy.async.shared::cta;\n", "")).unwrap_err();
    assert!(e.to_string().starts_with("synccheck: wgmma reads shared bytes"), "{e}");
}

/// Module-level `.global` and `.const` variables with initializers (what
/// LLVM emits for a kernel's constant tables) are loaded with the module:
/// out[t] = table[t] + c[t % 2], table bytes little-endian.
#[test]
fn module_variables_are_loaded_with_their_initializers() {
    let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.global .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0};
.const .align 4 .u32 c[2] = {100, 200};

.visible .entry look(
	.param .u64 look_out
)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [look_out];
	cvta.to.global.u64 	%rd1, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	mov.u64 	%rd3, table;
	add.s64 	%rd4, %rd3, %rd2;
	ld.global.u32 	%r2, [%rd4];
	and.b32 	%r3, %r1, 1;
	mul.wide.u32 	%rd5, %r3, 4;
	mov.u64 	%rd6, c;
	add.s64 	%rd6, %rd6, %rd5;
	ld.const.u32 	%r4, [%rd6];
	add.s32 	%r5, %r2, %r4;
	add.s64 	%rd7, %rd1, %rd2;
	st.global.u32 	[%rd7], %r5;
	ret;
}
"#;
    let (out, _) = launch(ptx, "look", [1, 1, 1], [4, 1, 1], &[output(16)], &[], Checks::ALL).unwrap();
    assert_eq!(to_u32(&out[0]), [101, 202, 103, 456]);
    // Reading past the table is a memcheck error naming the variable.
    let e = launch(
        &ptx.replace("mov.u32 \t%r1, %tid.x;", "add.s32 \t%r1, %tid.x, 1;"),
        "look",
        [1, 1, 1],
        [4, 1, 1],
        &[output(20)],
        &[],
        Checks::ALL,
    )
    .unwrap_err();
    assert!(e.to_string().contains("table"), "{e}");
}

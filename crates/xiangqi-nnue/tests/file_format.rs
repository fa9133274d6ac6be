//! The net file format: a round trip, and each kind of damage gives its own error.

use xiangqi_nnue::file::{self, payload_len, FIXED_HEADER_LEN};
use xiangqi_nnue::{FloatNetwork, NetFileError, Network};

fn sample(hidden: usize) -> Network {
    FloatNetwork::random(hidden, 11).quantise()
}

fn sample_bytes() -> Vec<u8> {
    sample(32).write("test net: random, seed 11")
}

#[test]
fn a_written_net_reads_back_equal_with_its_description() {
    for hidden in [16, 64, 128, 256, 512] {
        let net = sample(hidden);
        let bytes = net.write("trained on 1 000 positions, 2026-12-06 — 红方");
        assert_eq!(
            bytes.len(),
            FIXED_HEADER_LEN
                + "trained on 1 000 positions, 2026-12-06 — 红方".len()
                + payload_len(hidden)
        );
        let (read, info) = file::read(&bytes).unwrap();
        assert_eq!(read, net);
        assert_eq!(info.hidden, hidden);
        assert_eq!(
            info.description,
            "trained on 1 000 positions, 2026-12-06 — 红方"
        );
        assert_eq!(
            info.hash,
            file::fnv1a64(&bytes[bytes.len() - payload_len(hidden)..])
        );
    }
}

#[test]
fn the_header_fields_sit_at_their_documented_offsets() {
    let bytes = sample_bytes();
    assert_eq!(&bytes[0..8], b"XQNNUE\0\x01");
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    assert_eq!(u16_at(8), 1);
    assert_eq!(u16_at(10), 1260);
    assert_eq!(u16_at(12), 32);
    assert_eq!(bytes[14], 1);
    assert_eq!(
        (u16_at(15), u16_at(17), u16_at(19), bytes[21]),
        (255, 64, 400, 0)
    );
    let len = u32::from_le_bytes(bytes[22..26].try_into().unwrap()) as usize;
    assert_eq!(len, payload_len(32));
    assert_eq!(usize::from(u16_at(34)), "test net: random, seed 11".len());
}

#[test]
fn the_fnv1a_hash_matches_its_published_test_vectors() {
    assert_eq!(file::fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(file::fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(file::fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn a_wrong_magic_is_named() {
    let mut bytes = sample_bytes();
    bytes[0] = b'Y';
    assert!(matches!(
        Network::read(&bytes),
        Err(NetFileError::BadMagic { .. })
    ));
    assert!(matches!(
        Network::read(b""),
        Err(NetFileError::BadMagic { .. })
    ));
    let text = Network::read(b"PK\x03\x04 a zip file")
        .unwrap_err()
        .to_string();
    assert!(text.contains("not a xiangqi NNUE net file"), "{text}");
}

#[test]
fn another_version_is_unsupported() {
    let mut bytes = sample_bytes();
    bytes[8] = 2;
    assert_eq!(
        Network::read(&bytes),
        Err(NetFileError::UnsupportedVersion { found: 2 })
    );
}

#[test]
fn each_architecture_field_is_checked() {
    for (offset, value, field) in [
        (10, 1000u16.to_le_bytes().to_vec(), "inputs"),
        (12, 30u16.to_le_bytes().to_vec(), "hidden size"),
        (14, vec![2], "activation"),
        (15, 127u16.to_le_bytes().to_vec(), "QA"),
        (17, 32u16.to_le_bytes().to_vec(), "QB"),
        (19, 600u16.to_le_bytes().to_vec(), "SCALE"),
        (21, vec![9], "reserved byte"),
    ] {
        let mut bytes = sample_bytes();
        bytes[offset..offset + value.len()].copy_from_slice(&value);
        match Network::read(&bytes) {
            Err(NetFileError::UnsupportedArchitecture { field: named, .. }) => {
                assert_eq!(named, field)
            }
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn a_hidden_size_that_does_not_fit_the_payload_length_is_named() {
    let mut bytes = sample_bytes();
    bytes[12..14].copy_from_slice(&64u16.to_le_bytes());
    assert_eq!(
        Network::read(&bytes),
        Err(NetFileError::PayloadLength {
            hidden: 64,
            expected: payload_len(64),
            found: payload_len(32)
        })
    );
}

#[test]
fn a_file_cut_anywhere_is_truncated_or_not_a_net() {
    let bytes = sample_bytes();
    for len in (0..bytes.len())
        .step_by(97)
        .chain([8, 9, 20, 35, 36, 40, bytes.len() - 1])
    {
        match Network::read(&bytes[..len]) {
            Err(NetFileError::Truncated {
                available, offset, ..
            }) => assert_eq!(offset + available, len),
            Err(NetFileError::BadMagic { .. }) if len == 0 => {}
            other => panic!("cut at {len}: {other:?}"),
        }
    }
}

#[test]
fn a_changed_payload_byte_fails_the_hash() {
    let bytes = sample_bytes();
    for offset in [
        bytes.len() - payload_len(32),
        bytes.len() - 3,
        bytes.len() / 2,
    ] {
        let mut damaged = bytes.clone();
        damaged[offset] ^= 0x10;
        match Network::read(&damaged) {
            Err(NetFileError::HashMismatch { expected, found }) => assert_ne!(expected, found),
            other => panic!("byte {offset}: {other:?}"),
        }
    }
}

#[test]
fn bytes_after_the_payload_are_refused() {
    let mut bytes = sample_bytes();
    bytes.extend_from_slice(b"\n\n\n");
    assert_eq!(
        Network::read(&bytes),
        Err(NetFileError::TrailingBytes { count: 3 })
    );
}

#[test]
fn a_description_that_is_not_utf8_is_named() {
    let mut bytes = sample_bytes();
    bytes[FIXED_HEADER_LEN + 2] = 0xff;
    assert_eq!(
        Network::read(&bytes),
        Err(NetFileError::Description {
            offset: FIXED_HEADER_LEN + 2
        })
    );
}

#[test]
fn an_overlong_description_is_cut_at_a_character_boundary() {
    let long = "红".repeat(30_000);
    let (_, info) = file::read(&sample(16).write(&long)).unwrap();
    assert!(info.description.len() <= usize::from(u16::MAX));
    assert!(long.starts_with(&info.description) && !info.description.is_empty());
}

#[test]
fn a_missing_file_names_its_path() {
    let err = Network::load(std::path::Path::new("/nonexistent/dir/net.xqnn")).unwrap_err();
    assert!(matches!(err, NetFileError::Io { .. }));
    assert!(
        err.to_string().contains("/nonexistent/dir/net.xqnn"),
        "{err}"
    );
}

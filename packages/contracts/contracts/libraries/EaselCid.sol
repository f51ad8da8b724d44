// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title EaselCid
/// @notice Stores an IPFS CIDv1 as its 32-byte sha2-256 digest plus one codec bit, and rebuilds the
/// `ipfs://b...` URI (base32, lower case, no padding) on read. One storage slot instead of a 59-character string.
library EaselCid {
    /// @notice The CID is not a 36-byte CIDv1 with codec raw (0x55) or dag-pb (0x70) and a sha2-256 multihash.
    error InvalidCid();

    uint8 internal constant CODEC_RAW = 0x55;
    uint8 internal constant CODEC_DAG_PB = 0x70;

    /// @dev Parses binary CIDv1 bytes: 0x01 <codec> 0x12 0x20 <32-byte digest>.
    function parse(bytes calldata cid) internal pure returns (bytes32 digest, bool dagPb) {
        if (cid.length != 36 || cid[0] != 0x01 || cid[2] != 0x12 || cid[3] != 0x20) revert InvalidCid();
        uint8 codec = uint8(cid[1]);
        if (codec == CODEC_DAG_PB) dagPb = true;
        else if (codec != CODEC_RAW) revert InvalidCid();
        digest = bytes32(cid[4:36]);
    }

    /// @dev The binary CID for a digest and codec.
    function toBytes(bytes32 digest, bool dagPb) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(0x01), dagPb ? CODEC_DAG_PB : CODEC_RAW, uint8(0x12), uint8(0x20), digest);
    }

    /// @dev `ipfs://` + multibase 'b' + RFC 4648 base32 (lower case, unpadded) of the binary CID.
    function toUri(bytes32 digest, bool dagPb) internal pure returns (string memory) {
        bytes memory data = toBytes(digest, dagPb);
        bytes memory alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        // 36 bytes = 288 bits -> 58 base32 characters.
        bytes memory out = new bytes(8 + 58);
        bytes memory prefix = "ipfs://b";
        for (uint256 i; i < 8; ++i) out[i] = prefix[i];
        uint256 buffer;
        uint256 bits;
        uint256 o = 8;
        for (uint256 i; i < data.length; ++i) {
            buffer = (buffer << 8) | uint8(data[i]);
            bits += 8;
            while (bits >= 5) {
                bits -= 5;
                out[o++] = alphabet[(buffer >> bits) & 31];
            }
        }
        // 288 bits leave 3: the last character is padded with 2 zero bits.
        out[o] = alphabet[(buffer << (5 - bits)) & 31];
        return string(out);
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {Vm} from "./Vm.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {Carts} from "../../contracts/market/Carts.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {Collaborator, LazyMintVoucher} from "../../contracts/interfaces/IEaselTypes.sol";

interface IVoucherSigner {
    function signedVoucherFor(EaselCollection lazy, uint256 tokenId, uint256 price, address buyer_)
        external
        view
        returns (LazyMintVoucher memory);
}

/// @dev Drives the market with random trades among a few accounts (one of which rejects ETH) across three
/// collections (a standard one with a split token, the default one with two creators, a lazy one), with a
/// nonzero secondary fee, bans, blocks, locks, operator cancels, lazy mints and fee sweeps; item offers with random
/// expiries (renewed, returned by strangers once expired), bulk signed listings (trees of height 1-3), carts mixing
/// on-chain, signed and bulk listings (duplicates, ETH above or below the sum, all-or-nothing or not) and
/// collection offers (any token or a root over a random subset of ids; made, added to, accepted with right or
/// wrong proofs, cancelled by the buyer or by anyone after their expiry). Auctions are non-custodial: the token
/// stays with its seller, locked, so every trade and move is also tried on tokens in an auction (by their seller,
/// an operator the seller approved for all, or anyone), and sellers take the market's approval back during their
/// auctions. It computes the platform fees and the collection offers' remaining counts independently and records
/// every sale whose payout did not add up to its price, every move, approval, burn, listing or sale of a token in
/// an auction, every refused move of a free token by its owner and every settlement refused for no reason.
contract MarketHandler {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    struct Token {
        address collection;
        uint256 id;
    }

    EaselMarket public market;
    /// @dev The market's address with `EaselMarketAdmin`'s functions.
    EaselMarketAdmin internal marketAdmin;
    EaselCollection public lazy;
    address public admin;
    IVoucherSigner internal voucherSigner;
    address[5] public actors;
    Token[] internal _tokens;
    mapping(address collection => mapping(uint256 id => bool)) public ghostPrimaryDone;
    uint256 internal _nextLazyId = 100;
    bool internal _setUpClosed;

    /// Platform fees the market should hold, computed independently of the contract.
    uint256 public ghostFees;
    /// Fees lazy mints left in the lazy collection, not yet swept.
    uint256 public ghostLazyFees;
    /// Sales whose payout (to everyone, fees included) did not equal the price.
    uint256 public ghostPayoutMismatches;
    uint256 public ghostSales;

    constructor(EaselMarket market_, address admin_, address[5] memory actors_, EaselCollection lazy_) {
        market = market_;
        marketAdmin = EaselMarketAdmin(address(market_));
        admin = admin_;
        actors = actors_;
        lazy = lazy_;
        voucherSigner = IVoucherSigner(msg.sender);
    }

    /// @dev Set-up only: once `closeSetUp` is called, the fuzzer's calls add nothing.
    function addToken(address collection, uint256 id) external {
        if (_setUpClosed) return;
        _tokens.push(Token(collection, id));
    }

    function closeSetUp() external {
        _setUpClosed = true;
    }

    function tokenCount() external view returns (uint256) {
        return _tokens.length;
    }

    function tokenAt(uint256 i) external view returns (address, uint256) {
        return (_tokens[i].collection, _tokens[i].id);
    }

    function _token(uint256 seed) internal view returns (address, uint256) {
        Token memory t = _tokens[seed % _tokens.length];
        return (t.collection, t.id);
    }

    function _actor(uint256 seed) internal view returns (address) {
        return actors[seed % actors.length];
    }

    function _approve(address collection, address owner) internal {
        if (!EaselCollection(collection).isApprovedForAll(owner, address(market))) {
            vm.prank(owner);
            EaselCollection(collection).setApprovalForAll(address(market), true);
        }
    }

    /// @dev Everything the actors hold (balances, credits and payments held while banned) plus the platform fees.
    function _worth() internal view returns (uint256 total) {
        for (uint256 i; i < actors.length; ++i) {
            total += actors[i].balance + marketAdmin.creditOf(actors[i]) + marketAdmin.heldOf(actors[i]);
        }
        total += marketAdmin.feesAvailable();
    }

    function _fee(address collection, uint256 id, uint256 price) internal returns (uint256) {
        bool primary = !ghostPrimaryDone[collection][id];
        ghostPrimaryDone[collection][id] = true;
        return (price * (primary ? 1_000 : 250)) / 10_000;
    }

    /// @dev A sale paid from escrow must add exactly `price` to what the actors and the platform hold; a
    /// buy-now (paid by an actor) must leave the total unchanged.
    function _recordSale(uint256 worthBefore, uint256 fromEscrow) internal {
        ghostSales++;
        if (_worth() != worthBefore + fromEscrow) ghostPayoutMismatches++;
    }

    // ------------------------------------------------------------ time and moderation

    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + (seconds_ % 4 days));
    }

    function ban(uint256 actorSeed, bool banned) external {
        vm.prank(admin);
        marketAdmin.setBanned(_actor(actorSeed), banned);
    }

    function blockToken(uint256 tokenSeed, bool blocked) external {
        (address c, uint256 id) = _token(tokenSeed);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, id, blocked);
    }

    function blockCollection(uint256 tokenSeed, bool blocked) external {
        (address c,) = _token(tokenSeed);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, blocked);
    }

    function lock(bool locked) external {
        vm.prank(admin);
        marketAdmin.setMarketLocked(locked);
    }

    // ------------------------------------------------------------ trades

    /// The owner lists a token (refused while it is in an auction).
    function list(uint256 tokenSeed, uint256 price) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        bool locked = _inAuction(c, id);
        _approve(c, owner);
        vm.prank(owner);
        try market.setSellOrder(c, id, 0.05 ether + (price % 5 ether)) {
            if (locked) ghostLockBreaches++;
        } catch {}
    }

    /// The owner (or, at times, an operator the owner approved for all) moves a token, by `transferFrom` or a
    /// `safeTransferFrom` to an account without code: refused exactly while the token is in an auction.
    function transfer(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        bool locked = _inAuction(c, id);
        address by = owner;
        if ((actorSeed >> 8) % 3 == 0) {
            by = OPERATOR;
            vm.prank(owner);
            EaselCollection(c).setApprovalForAll(OPERATOR, true);
        }
        bool safe = (actorSeed >> 16) % 2 == 0;
        // A safe transfer goes to one of the first four actors, accounts without code (the fifth is a contract
        // without a receiver hook, which refuses it).
        address to = safe ? actors[actorSeed % 4] : _actor(actorSeed);
        vm.prank(by);
        bool moved;
        if (!safe) {
            try EaselCollection(c).transferFrom(owner, to, id) {
                moved = true;
            } catch {}
        } else {
            try EaselCollection(c).safeTransferFrom(owner, to, id) {
                moved = true;
            } catch {}
        }
        if (by == OPERATOR) {
            vm.prank(owner);
            EaselCollection(c).setApprovalForAll(OPERATOR, false);
        }
        if (moved && locked) ghostLockBreaches++;
        if (!moved && !locked) ghostFreeMovesRefused++;
    }

    /// The owner of a token in an auction (or an operator the owner approved for all) tries to burn it: always
    /// refused. Free tokens are not burned here (the invariants read every token's owner).
    function burnLocked(uint256 tokenSeed, bool byOperator) external {
        (address c, uint256 id) = _token(tokenSeed);
        if (!_inAuction(c, id)) return;
        address owner = EaselCollection(c).ownerOf(id);
        if (byOperator) {
            vm.prank(owner);
            EaselCollection(c).setApprovalForAll(OPERATOR, true);
        }
        vm.prank(byOperator ? OPERATOR : owner);
        try EaselCollection(c).burnNFT(id) {
            ghostLockBreaches++;
        } catch {}
        if (byOperator) {
            vm.prank(owner);
            EaselCollection(c).setApprovalForAll(OPERATOR, false);
        }
    }

    /// An actor takes the market's approval for all back, maybe while their token is in an auction (its
    /// settlement must still go through); the next listing, auction or accept of theirs gives it again.
    function revokeMarket(uint256 actorSeed) external {
        address actor = _actor(actorSeed);
        (address c,) = _token(actorSeed >> 8);
        vm.prank(actor);
        EaselCollection(c).setApprovalForAll(address(market), false);
    }

    /// The token's approved address moves it: every approval still set must work (the collection reads the
    /// approved slot only when the ownership slot's bit says there is one).
    function transferByApproved(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address approved = EaselCollection(c).getApproved(id);
        if (approved == address(0)) return;
        address owner = EaselCollection(c).ownerOf(id);
        vm.prank(approved);
        try EaselCollection(c).transferFrom(owner, _actor(actorSeed), id) {} catch {
            ghostApprovalsRefused++;
        }
    }

    /// A single-token approval by the owner, or at times by the market (approved for all by most owners): refused
    /// while the token is in an auction.
    function approveToken(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        bool locked = _inAuction(c, id);
        vm.prank((actorSeed >> 8) % 4 == 0 ? address(market) : owner);
        try EaselCollection(c).approve(_actor(actorSeed), id) {
            if (locked) ghostLockBreaches++;
        } catch {}
    }

    function buy(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        (address seller, uint256 price,) = marketAdmin.getSellOrder(c, id);
        address buyer = _actor(actorSeed);
        if (price == 0 || buyer == seller) return;
        bool locked = _inAuction(c, id);
        vm.deal(buyer, buyer.balance + price);
        uint256 before = _worth();
        vm.prank(buyer);
        try market.buyNow{value: price}(c, id) {
            if (locked) ghostLockBreaches++;
            ghostFees += _fee(c, id, price);
            _recordSale(before, 0);
        } catch {}
    }

    /// The owner puts a token in an auction: a second one while it is in one is refused.
    function auction(uint256 tokenSeed, uint256 price, bool reserve) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        bool locked = _inAuction(c, id);
        _approve(c, owner);
        vm.prank(owner);
        if (reserve) {
            try market.setReserveAuction(c, id, 0.1 ether + (price % 2 ether)) {
                if (locked) ghostLockBreaches++;
            } catch {}
        } else {
            try market.setStandardAuction(c, id, 1 ether + (price % 2 ether), 0, 1 hours) {
                if (locked) ghostLockBreaches++;
            } catch {}
        }
    }

    function bid(uint256 tokenSeed, uint256 actorSeed, uint256 extra) external {
        (address c, uint256 id) = _token(tokenSeed);
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        address bidder = _actor(actorSeed);
        if (a.kind == 0 || bidder == a.seller) return;
        uint256 total = marketAdmin.minimumBid(c, id) + (extra % 1 ether);
        uint256 value = bidder == a.bidder ? total - a.amount : total;
        vm.deal(bidder, bidder.balance + value);
        vm.prank(bidder);
        try market.placeBid{value: value}(c, id, total) {} catch {}
    }

    /// Anyone settles an auction. One that ended with a winner goes through unless a party is banned or the
    /// token or its collection is blocked, whatever the market's approval (its seller may have revoked it).
    function complete(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        uint256 before = _worth();
        try market.completeAuction(c, id) {
            ghostFees += _fee(c, id, a.amount);
            _recordSale(before, a.amount);
            // The winner, and nobody else, receives the token.
            if (EaselCollection(c).ownerOf(id) != a.bidder) ghostPayoutMismatches++;
        } catch {
            if (
                a.kind != 0 && a.bidder != address(0) && block.timestamp >= a.end && !marketAdmin.isBanned(a.seller)
                    && !marketAdmin.isBanned(a.bidder) && !marketAdmin.isTokenBlocked(c, id)
                    && !marketAdmin.isCollectionBlocked(c)
            ) ghostSettlementsRefused++;
        }
    }

    function cancelAuction(uint256 tokenSeed, bool asOperator) external {
        (address c, uint256 id) = _token(tokenSeed);
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        vm.prank(asOperator ? admin : a.seller);
        try marketAdmin.invalidateAuction(c, id) {} catch {}
    }

    /// An offer (or a raise) with a random expiry: mostly within a week (so that warps make offers expire), at
    /// times at the 100-day bound or outside it (refused); mostly whole gwei, at times not (refused).
    function offer(uint256 tokenSeed, uint256 actorSeed, uint256 amount, uint256 expirySeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address buyer = _actor(actorSeed);
        EaselMarketAdmin.OfferView memory current = marketAdmin.getOffer(c, id);
        uint256 total = 0.05 ether + (amount % 3 ether);
        if (amount % 16 != 0) total = (total / 1 gwei) * 1 gwei;
        uint256 value = current.buyer == buyer && total >= current.amount ? total - current.amount : total;
        vm.deal(buyer, buyer.balance + value);
        vm.prank(buyer);
        try market.makeOffer{value: value}(c, id, total, _expiry(expirySeed)) {
            // A live offer is only replaced by one at least 1 gwei higher.
            if (block.timestamp < current.expiresAt && total < current.amount + 1 gwei) ghostOfferViolations++;
        } catch {}
    }

    /// The offerer renews their offer at the same amount, sending nothing: allowed once it has expired only.
    function renewOffer(uint256 tokenSeed, uint256 expirySeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        EaselMarketAdmin.OfferView memory current = marketAdmin.getOffer(c, id);
        if (current.buyer == address(0)) return;
        vm.prank(current.buyer);
        try market.makeOffer(c, id, current.amount, _expiry(expirySeed)) {
            if (block.timestamp < current.expiresAt) ghostOfferViolations++;
        } catch {}
    }

    function cancelOffer(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address buyer = marketAdmin.getOffer(c, id).buyer;
        vm.prank(buyer);
        try market.cancelOffer(c, id) {} catch {}
    }

    /// Someone (an actor, maybe the offerer, or a stranger) returns an offer to its offerer: refused while it is
    /// live unless the caller is the offerer; the offerer gets exactly the amount back.
    function cancelOfferBy(uint256 tokenSeed, uint256 callerSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        EaselMarketAdmin.OfferView memory o = marketAdmin.getOffer(c, id);
        address caller = callerSeed % 3 == 0 ? STRANGER : _actor(callerSeed);
        uint256 before = _own(o.buyer);
        vm.prank(caller);
        try market.cancelOffer(c, id) {
            if (caller != o.buyer && block.timestamp < o.expiresAt) ghostOfferViolations++;
            if (_own(o.buyer) != before + o.amount) ghostOfferViolations++;
        } catch {}
    }

    /// The owner accepts the token's offer (refused while the token is in an auction).
    function acceptOffer(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        EaselMarketAdmin.OfferView memory o = marketAdmin.getOffer(c, id);
        bool locked = _inAuction(c, id);
        _approve(c, owner);
        uint256 before = _worth();
        vm.prank(owner);
        try market.acceptOffer(c, id, 0) {
            if (locked) ghostLockBreaches++;
            if (block.timestamp >= o.expiresAt) ghostOfferViolations++;
            ghostFees += _fee(c, id, o.amount);
            _recordSale(before, o.amount);
        } catch {}
    }

    // ------------------------------------------------------------ signed listings

    /// @dev Actors with a key sign listings (the others are contracts or keyless test addresses).
    mapping(address actor => uint256 key) public keyOf;
    MarketCore.SignedListing[] internal _signed;
    bytes[] internal _signatures;
    /// Filled listings, by their contents (`keccak256(abi.encode(listing))`): a listing signed alone and the same
    /// listing in a bulk tree are one listing, filled at most once by any route (single, bulk, cart).
    mapping(bytes32 listing => bool) internal _filled;
    /// Signed listings filled a second time (must stay 0).
    uint256 public ghostDoubleFills;
    /// Transfers by a token's approved address that the collection refused.
    uint256 public ghostApprovalsRefused;
    uint256 public ghostSignedFills;

    function setKey(address actor, uint256 key) external {
        if (_setUpClosed) return;
        keyOf[actor] = key;
    }

    /// The owner signs a listing of a token (kept to be filled, maybe after it went stale).
    function signListing(uint256 tokenSeed, uint256 price, uint256 daysAhead) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        uint256 key = keyOf[owner];
        if (key == 0) return;
        _approve(c, owner);
        MarketCore.SignedListing memory o = MarketCore.SignedListing({
            collection: c,
            tokenId: id,
            price: 0.05 ether + (price % 5 ether),
            seller: owner,
            transferCount: EaselCollection(c).transferCountOf(id),
            counter: marketAdmin.listingCounterOf(owner),
            expiresAt: block.timestamp + 1 hours + (daysAhead % 100 days),
            // Some accept every fee, some only the secondary fee (their primary sales are refused).
            maxFeeBps: daysAhead % 3 == 0 ? 250 : 2_000
        });
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(key, marketAdmin.hashSignedListing(o));
        _signed.push(o);
        _signatures.push(abi.encodePacked(r, s_, v));
    }

    /// Anyone fills a kept signed listing, live or stale (filled, cancelled, bumped, moved, expired, blocked).
    function fillSigned(uint256 orderSeed, uint256 actorSeed) external {
        if (_signed.length == 0) return;
        uint256 i = orderSeed % _signed.length;
        MarketCore.SignedListing memory o = _signed[i];
        address buyer = _actor(actorSeed);
        bool locked = _inAuction(o.collection, o.tokenId);
        vm.deal(buyer, buyer.balance + o.price);
        uint256 before = _worth();
        vm.prank(buyer);
        try market.fillSignedListing{value: o.price}(o, _signatures[i]) {
            if (locked) ghostLockBreaches++;
            _markFilled(o);
            ghostFees += _fee(o.collection, o.tokenId, o.price);
            _recordSale(before, 0);
        } catch {}
    }

    function cancelSigned(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        vm.prank(owner);
        try marketAdmin.cancelSignedListing(c, id) {} catch {}
    }

    function incrementCounter(uint256 actorSeed) external {
        vm.prank(_actor(actorSeed));
        marketAdmin.incrementListingCounter();
    }

    /// An operator releases or forfeits what is held for a banned payee.
    function settleHeld(uint256 actorSeed, bool release) external {
        address account = _actor(actorSeed);
        uint256 amount = marketAdmin.heldOf(account);
        vm.prank(admin);
        if (release) {
            try marketAdmin.releaseHeld(account) {} catch {}
        } else {
            try marketAdmin.forfeitHeld(account) {
                ghostFees += amount;
            } catch {}
        }
    }

    function lazyMint(uint256 actorSeed, uint256 price) external {
        address buyer = _actor(actorSeed);
        uint256 id = _nextLazyId;
        uint256 p = 0.05 ether + (price % 2 ether);
        LazyMintVoucher memory v = voucherSigner.signedVoucherFor(lazy, id, p, buyer);
        vm.deal(buyer, buyer.balance + p);
        vm.prank(buyer);
        try lazy.lazyMint{value: p}(v) {
            _nextLazyId++;
            _tokens.push(Token(address(lazy), id));
            ghostPrimaryDone[address(lazy)][id] = true;
            ghostLazyFees += (p * 1_000) / 10_000;
        } catch {}
    }

    function sweepLazyFees() external {
        lazy.sweepFees();
        ghostFees += ghostLazyFees;
        ghostLazyFees = 0;
    }

    function withdraw(uint256 actorSeed) external {
        address account = _actor(actorSeed);
        vm.prank(account);
        try marketAdmin.withdrawTo(address(0xFEE)) {} catch {}
    }

    // ------------------------------------------------------------ v4: shared helpers

    /// A caller who is none of the actors (holds nothing, is owed nothing).
    address internal constant STRANGER = address(0xBEEF);
    bytes32 internal constant SIGNED_LISTING_TYPEHASH = keccak256(
        "SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)"
    );

    /// Item offers and collection offers broken: a live offer replaced without being beaten, renewed while live,
    /// returned by a stranger while live, accepted after its expiry, a refund that is not the escrow, a buyer
    /// who cannot cancel, an accepted token outside the offer's root (must stay 0).
    uint256 public ghostOfferViolations;

    /// What `account` holds and is owed: balance, credits at the market and payments held for it.
    function _own(address account) internal view returns (uint256) {
        return account.balance + marketAdmin.creditOf(account) + marketAdmin.heldOf(account);
    }

    /// An offer's expiry: mostly 1 second to 8 days ahead; at times exactly now or past 100 days (refused), or
    /// exactly 100 days ahead (the bound).
    function _expiry(uint256 seed) internal view returns (uint256) {
        uint256 r = seed % 16;
        if (r == 0) return block.timestamp;
        if (r == 1) return block.timestamp + 100 days + 1;
        if (r == 2) return block.timestamp + 100 days;
        return block.timestamp + 1 + ((seed >> 8) % 8 days);
    }

    function _markFilled(MarketCore.SignedListing memory o) internal {
        bytes32 key = keccak256(abi.encode(o));
        if (_filled[key]) ghostDoubleFills++;
        _filled[key] = true;
        ghostSignedFills++;
    }

    function _rand(uint256 seed, uint256 salt) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed, salt)));
    }

    // ------------------------------------------------------------ the auction lock

    /// An operator some owners approve for all for one action (then revoke).
    address internal constant OPERATOR = address(0x0BE7);
    /// Moves, approvals, burns, listings, sales and second auctions of a token in an auction that went through
    /// (must stay 0).
    uint256 public ghostLockBreaches;
    /// Moves of a token in no auction, by its owner or their operator, that were refused (must stay 0: the lock
    /// is lifted by every settlement and cancel).
    uint256 public ghostFreeMovesRefused;
    /// Settlements of auctions that ended with a winner refused with no party banned and nothing blocked (must
    /// stay 0).
    uint256 public ghostSettlementsRefused;

    function _inAuction(address c, uint256 id) internal view returns (bool) {
        return marketAdmin.getAuction(c, id).kind != 0;
    }

    // ------------------------------------------------------------ v4: bulk signed listings

    struct BulkLeaf {
        MarketCore.SignedListing order;
        bytes signature;
        uint256 index;
        /// abi.encode(bytes32[] proof)
        bytes proof;
    }

    BulkLeaf[] internal _bulk;
    uint256 public ghostBulkFills;

    /// A keyed actor signs one tree of 2, 4 or 8 listings: first the tokens they own (at random prices), then
    /// maybe one of a token they do not own (never fills), then zero leaves (the first one kept to be tried).
    function signBulk(uint256 actorSeed, uint256 heightSeed, uint256 priceSeed, uint256 daysAhead) external {
        address seller = _actor(actorSeed);
        uint256 key = keyOf[seller];
        if (key == 0) {
            seller = actors[2 + (actorSeed % 2)];
            key = keyOf[seller];
        }
        uint256 height = 1 + (heightSeed % 3);
        uint256 n = 1 << height;
        MarketCore.SignedListing[] memory leaves = new MarketCore.SignedListing[](n);
        uint256 used;
        uint256 start = priceSeed % _tokens.length;
        for (uint256 k; k < _tokens.length && used < n; ++k) {
            Token memory t = _tokens[(start + k) % _tokens.length];
            if (EaselCollection(t.collection).ownerOf(t.id) != seller) continue;
            _approve(t.collection, seller);
            leaves[used] = _bulkListing(seller, t.collection, t.id, _rand(priceSeed, used), daysAhead);
            used++;
        }
        if (used < n && (heightSeed >> 8) % 2 == 0) {
            (address c, uint256 id) = _token(heightSeed >> 16);
            leaves[used] = _bulkListing(seller, c, id, _rand(priceSeed, used), daysAhead);
            used++;
        }
        // Levels of the positional tree: level 0 the listings' struct hashes, zero leaves included.
        bytes32[][] memory levels = new bytes32[][](height + 1);
        levels[0] = new bytes32[](n);
        for (uint256 i; i < n; ++i) levels[0][i] = keccak256(abi.encode(SIGNED_LISTING_TYPEHASH, leaves[i]));
        for (uint256 l; l < height; ++l) {
            uint256 width = n >> (l + 1);
            levels[l + 1] = new bytes32[](width);
            for (uint256 j; j < width; ++j) {
                levels[l + 1][j] = keccak256(abi.encode(levels[l][2 * j], levels[l][2 * j + 1]));
            }
        }
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(key, marketAdmin.hashBulkListing(levels[height][0], height));
        bytes memory signature = abi.encodePacked(r, s_, v);
        uint256 keep = used < n ? used + 1 : n;
        for (uint256 i; i < keep; ++i) {
            bytes32[] memory proof = new bytes32[](height);
            for (uint256 l; l < height; ++l) proof[l] = levels[l][(i >> l) ^ 1];
            _bulk.push(BulkLeaf(leaves[i], signature, i, abi.encode(proof)));
        }
    }

    function _bulkListing(address seller, address c, uint256 id, uint256 priceSeed, uint256 daysAhead)
        internal
        view
        returns (MarketCore.SignedListing memory)
    {
        return MarketCore.SignedListing({
            collection: c,
            tokenId: id,
            price: 0.05 ether + (priceSeed % 5 ether),
            seller: seller,
            transferCount: EaselCollection(c).transferCountOf(id),
            counter: marketAdmin.listingCounterOf(seller),
            expiresAt: block.timestamp + 1 hours + (daysAhead % 100 days),
            maxFeeBps: daysAhead % 3 == 0 ? 250 : 2_000
        });
    }

    /// @dev `fillBulkSignedListing`'s packed `bulkSignature` (height, index, proof, signature).
    function packBulk(bytes memory sig, uint256 index, bytes32[] memory proof) private pure returns (bytes memory) {
        return abi.encodePacked(uint8(proof.length), uint16(index), proof, sig);
    }

    /// Anyone fills a leaf of a bulk listing, live or stale (or a zero leaf, never).
    function fillBulk(uint256 leafSeed, uint256 actorSeed) external {
        if (_bulk.length == 0) return;
        BulkLeaf memory b = _bulk[leafSeed % _bulk.length];
        address buyer = _actor(actorSeed);
        if (buyer == b.order.seller) buyer = _actor(actorSeed + 1);
        bool locked = b.order.collection != address(0) && _inAuction(b.order.collection, b.order.tokenId);
        vm.deal(buyer, buyer.balance + b.order.price);
        uint256 before = _worth();
        vm.prank(buyer);
        try market.fillBulkSignedListing{value: b.order.price}(
            b.order, packBulk(b.signature, b.index, abi.decode(b.proof, (bytes32[])))
        ) {
            if (locked) ghostLockBreaches++;
            _markFilled(b.order);
            ghostBulkFills++;
            ghostFees += _fee(b.order.collection, b.order.tokenId, b.order.price);
            _recordSale(before, 0);
        } catch {}
    }

    // ------------------------------------------------------------ v4: carts

    /// Carts whose outcome contradicts what was asked: a purchase neither made nor skipped, a sale to someone
    /// else or of something not in the cart, more spent than sent, a wrong refund, a default cart that reverted,
    /// an all-or-nothing cart that skipped (must stay 0).
    uint256 public ghostCartMismatches;
    uint256 public ghostCarts;
    uint256 public ghostCartPurchases;
    uint256 public ghostCartRefunds;

    /// A cart of 0-3 on-chain listings (at the listed price, at times a wrong one, or of an unlisted token) and
    /// 0-3 signed listings (single or bulk leaves, live or stale), at times with a duplicate; the ETH sent is the
    /// sum, more, or less; all-or-nothing at random. Each `Sale` is paired with its purchase and its fee counted;
    /// the buyer spends exactly the prices of what they bought.
    function buyCart(uint256 seed, uint256 actorSeed, uint256 valueSeed, bool allOrNothing) external {
        address buyer = _actor(actorSeed);
        uint256 nListed = seed % 4;
        uint256 nSigned = _signed.length + _bulk.length == 0 ? 0 : (seed >> 8) % 4;
        if (nListed + nSigned == 0) nListed = 1;
        Carts.ListedPurchase[] memory listed = new Carts.ListedPurchase[](nListed);
        Carts.SignedPurchase[] memory signed = new Carts.SignedPurchase[](nSigned);
        uint256 sum;
        for (uint256 i; i < nListed; ++i) {
            uint256 r = _rand(seed, i);
            (address c, uint256 id) = _token(r);
            (, uint256 price,) = marketAdmin.getSellOrder(c, id);
            // Mostly a listed token, if there is one.
            for (uint256 k = 1; k < _tokens.length && price == 0 && (r >> 192) % 4 != 0; ++k) {
                (c, id) = _token(r + k);
                (, price,) = marketAdmin.getSellOrder(c, id);
            }
            if (price == 0) price = 0.05 ether + ((r >> 64) % 1 ether);
            else if ((r >> 128) % 8 == 0) price += 1;
            listed[i] = Carts.ListedPurchase(c, id, price);
        }
        for (uint256 i; i < nSigned; ++i) {
            uint256 r = _rand(seed, 100 + i);
            if (_bulk.length == 0 || (_signed.length != 0 && r % 2 == 0)) {
                uint256 k = (r >> 8) % _signed.length;
                signed[i] = Carts.SignedPurchase(_signed[k], _signatures[k], 0, new bytes32[](0));
            } else {
                BulkLeaf memory b = _bulk[(r >> 8) % _bulk.length];
                signed[i] = Carts.SignedPurchase(b.order, b.signature, b.index, abi.decode(b.proof, (bytes32[])));
            }
        }
        // Duplicates: the first purchase again at the end.
        if ((seed >> 16) % 4 == 0) {
            if (nListed > 1) listed[nListed - 1] = listed[0];
            if (nSigned > 1) signed[nSigned - 1] = signed[0];
        }
        for (uint256 i; i < nListed; ++i) sum += listed[i].price;
        for (uint256 i; i < nSigned; ++i) sum += signed[i].order.price;
        uint256 value = valueSeed % 3 == 0
            ? sum
            : (valueSeed % 3 == 1 ? sum + ((valueSeed >> 8) % 1 ether) : (valueSeed >> 8) % (sum + 1));
        vm.deal(buyer, buyer.balance + value);
        _runCart(buyer, listed, signed, allOrNothing, value);
    }

    function _runCart(
        address buyer,
        Carts.ListedPurchase[] memory listed,
        Carts.SignedPurchase[] memory signed,
        bool allOrNothing,
        uint256 value
    ) internal {
        uint256 worthBefore = _worth();
        uint256 buyerBefore = _own(buyer);
        vm.recordLogs();
        vm.prank(buyer);
        try market.buyMany{value: value}(listed, signed, allOrNothing) {}
        catch {
            vm.getRecordedLogs();
            // Only an all-or-nothing cart reverts (its size is always valid here).
            if (!allOrNothing) ghostCartMismatches++;
            return;
        }
        Vm.Log[] memory logs = vm.getRecordedLogs();
        ghostCarts++;
        uint256 spent;
        uint256 outcomes;
        uint256 skipped;
        for (uint256 i; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter != address(market)) continue;
            if (log.topics[0] == Carts.PurchaseSkipped.selector) {
                skipped++;
                outcomes++;
            } else if (log.topics[0] == MarketCore.Sale.selector) {
                outcomes++;
                spent += _cartSale(buyer, listed, signed, log);
            }
        }
        ghostSales++;
        if (outcomes != listed.length + signed.length || (allOrNothing && skipped != 0) || spent > value) {
            ghostCartMismatches++;
            return;
        }
        ghostCartRefunds += value - spent;
        // Keyed actors are paid by no sale (they create nothing and never sell to themselves): they pay exactly
        // what they bought, the rest of what they sent comes back (sent, or credited).
        if (keyOf[buyer] != 0 && _own(buyer) != buyerBefore - spent) ghostCartMismatches++;
        // The cart is paid by an actor: what everyone holds is unchanged (the payouts add up to the prices).
        if (_worth() != worthBefore) ghostPayoutMismatches++;
    }

    /// A `Sale` of a cart: it must be one of the cart's purchases, at its price, to the buyer, who owns the token.
    function _cartSale(
        address buyer,
        Carts.ListedPurchase[] memory listed,
        Carts.SignedPurchase[] memory signed,
        Vm.Log memory log
    ) internal returns (uint256) {
        address c = address(uint160(uint256(log.topics[1])));
        uint256 id = uint256(log.topics[2]);
        address seller = address(uint160(uint256(log.topics[3])));
        (address saleBuyer, uint8 mechanism, uint256 price,,,) =
            abi.decode(log.data, (address, uint8, uint256, uint256, uint256, bool));
        bool found;
        if (mechanism == 1) {
            for (uint256 i; i < listed.length && !found; ++i) {
                found = listed[i].collection == c && listed[i].tokenId == id && listed[i].price == price;
            }
        } else if (mechanism == 4) {
            // The listing filled: the token moved once since it was signed.
            uint256 count = EaselCollection(c).transferCountOf(id);
            for (uint256 i; i < signed.length && !found; ++i) {
                MarketCore.SignedListing memory o = signed[i].order;
                if (
                    o.collection == c && o.tokenId == id && o.price == price && o.seller == seller
                        && o.transferCount + 1 == count
                ) {
                    found = true;
                    _markFilled(o);
                }
            }
        }
        if (!found || saleBuyer != buyer || EaselCollection(c).ownerOf(id) != buyer) ghostCartMismatches++;
        // A token in an auction is never sold by a cart (its auction would still be there).
        if (_inAuction(c, id)) ghostLockBreaches++;
        ghostCartPurchases++;
        ghostFees += _fee(c, id, price);
        return price;
    }

    // ------------------------------------------------------------ v4: collection offers

    struct TrackedOffer {
        MarketCore.CollectionOffer terms;
        bytes32 id;
        /// The ids in `terms.tokenRoot` (empty when it is zero).
        uint256[] ids;
    }

    /// Every collection offer made in the run (by its terms; the same terms again are one offer).
    TrackedOffer[] internal _collectionOffers;
    mapping(bytes32 offerId => bool) internal _tracked;
    /// How many tokens each offer still buys, by the handler's count.
    mapping(bytes32 offerId => uint256) public ghostRemaining;
    mapping(bytes32 offerId => uint256) public ghostAdded;
    mapping(bytes32 offerId => uint256) public ghostBought;
    mapping(bytes32 offerId => uint256) public ghostCancelled;
    /// Accepts of an offer that had nothing left by the handler's count (must stay 0).
    uint256 public ghostOverfills;
    uint256 public ghostCollectionOfferSales;

    function collectionOfferCount() external view returns (uint256) {
        return _collectionOffers.length;
    }

    function collectionOfferAt(uint256 i) external view returns (MarketCore.CollectionOffer memory, bytes32) {
        return (_collectionOffers[i].terms, _collectionOffers[i].id);
    }

    /// The ETH live collection offers escrow: price × remaining, as counted here (expired ones included).
    function collectionOfferEscrow() external view returns (uint256 total) {
        for (uint256 i; i < _collectionOffers.length; ++i) {
            total += _collectionOffers[i].terms.price * ghostRemaining[_collectionOffers[i].id];
        }
    }

    /// An actor makes a collection offer for 1-3 tokens (any token, or the tokens of a random subset of ids,
    /// one of which does not exist), or adds to offer terms made before.
    function makeCollectionOffer(uint256 seed, uint256 actorSeed, uint256 priceSeed, uint256 expirySeed) external {
        MarketCore.CollectionOffer memory terms;
        uint256[] memory ids;
        if (_collectionOffers.length != 0 && seed % 4 == 0) {
            TrackedOffer storage t = _collectionOffers[(seed >> 8) % _collectionOffers.length];
            terms = t.terms;
            ids = t.ids;
        } else {
            (address c,) = _token(seed >> 8);
            if (seed % 3 != 0) {
                ids = _subset(c, seed >> 16);
                terms.tokenRoot = _root(ids);
            }
            terms.buyer = _actor(actorSeed);
            terms.collection = c;
            terms.price = 0.05 ether + (priceSeed % 2 ether);
            terms.expiresAt = _expiry(expirySeed);
        }
        uint256 quantity = 1 + (actorSeed >> 8) % 3;
        uint256 value = terms.price * quantity;
        vm.deal(terms.buyer, terms.buyer.balance + value);
        vm.prank(terms.buyer);
        try market.makeCollectionOffer{value: value}(terms, quantity) {
            bytes32 offerId = keccak256(abi.encode(terms));
            if (!_tracked[offerId]) {
                _tracked[offerId] = true;
                TrackedOffer storage t = _collectionOffers.push();
                t.terms = terms;
                t.id = offerId;
                t.ids = ids;
            }
            ghostRemaining[offerId] += quantity;
            ghostAdded[offerId] += quantity;
        } catch {}
    }

    /// The owner of a random token sells it to a random collection offer, with the right proof or another id's.
    function acceptCollectionOffer(uint256 offerSeed, uint256 tokenSeed, uint256 proofSeed) external {
        if (_collectionOffers.length == 0) return;
        TrackedOffer memory t = _collectionOffers[offerSeed % _collectionOffers.length];
        address c = t.terms.collection;
        uint256 id;
        // Mostly a token of the offer's collection; else any token's id (maybe not minted there).
        if (proofSeed % 4 != 0) {
            for (uint256 k; k < _tokens.length; ++k) {
                Token memory tk = _tokens[(tokenSeed + k) % _tokens.length];
                if (tk.collection == c) {
                    id = tk.id;
                    break;
                }
            }
        } else {
            (, id) = _token(tokenSeed);
        }
        address owner;
        try EaselCollection(c).ownerOf(id) returns (address o) {
            owner = o;
        } catch {
            return;
        }
        bool locked = _inAuction(c, id);
        _approve(c, owner);
        bool inRoot = t.terms.tokenRoot == 0;
        uint256 at;
        for (uint256 k; k < t.ids.length; ++k) {
            if (t.ids[k] == id) {
                inRoot = true;
                at = k;
            }
        }
        // The proof of the token's id (if in the root), at times of another id of the root.
        if (t.ids.length != 0 && (!inRoot || (proofSeed >> 8) % 5 == 0)) at = (proofSeed >> 16) % t.ids.length;
        bytes32[] memory proof = t.ids.length == 0 ? new bytes32[](0) : _proof(t.ids, at);
        uint256 before = _worth();
        vm.prank(owner);
        try market.acceptCollectionOffer(t.terms, id, proof) {
            if (locked) ghostLockBreaches++;
            if (ghostRemaining[t.id] == 0) ghostOverfills++;
            else ghostRemaining[t.id]--;
            ghostBought[t.id]++;
            ghostCollectionOfferSales++;
            if (!inRoot || block.timestamp >= t.terms.expiresAt || EaselCollection(c).ownerOf(id) != t.terms.buyer) {
                ghostOfferViolations++;
            }
            ghostFees += _fee(c, id, t.terms.price);
            _recordSale(before, t.terms.price);
        } catch {}
    }

    /// The buyer, an actor or a stranger cancels a collection offer, at times after a warp past its expiry:
    /// allowed to the buyer always and to anyone once expired; the buyer gets price × remaining back.
    function cancelCollectionOffer(uint256 offerSeed, uint256 callerSeed, bool pastExpiry) external {
        if (_collectionOffers.length == 0) return;
        TrackedOffer memory t = _collectionOffers[offerSeed % _collectionOffers.length];
        if (pastExpiry && block.timestamp < t.terms.expiresAt) vm.warp(t.terms.expiresAt + (callerSeed % 1 days));
        address caller =
            callerSeed % 3 == 0 ? t.terms.buyer : (callerSeed % 3 == 1 ? STRANGER : _actor(callerSeed >> 8));
        uint256 remaining = ghostRemaining[t.id];
        uint256 before = _own(t.terms.buyer);
        vm.prank(caller);
        try marketAdmin.cancelCollectionOffer(t.terms) {
            if (remaining == 0 || (caller != t.terms.buyer && block.timestamp < t.terms.expiresAt)) {
                ghostOfferViolations++;
            }
            if (_own(t.terms.buyer) != before + t.terms.price * remaining) ghostOfferViolations++;
            ghostCancelled[t.id] += remaining;
            ghostRemaining[t.id] = 0;
        } catch {
            // The buyer can always take back what is left.
            if (caller == t.terms.buyer && remaining != 0) ghostOfferViolations++;
        }
    }

    /// A random non-empty subset of the ids of `c`'s tokens, plus at times an id no token has.
    function _subset(address c, uint256 seed) internal view returns (uint256[] memory ids) {
        ids = new uint256[](_tokens.length + 1);
        uint256 n;
        for (uint256 k; k < _tokens.length; ++k) {
            if (_tokens[k].collection == c && (seed >> k) % 2 == 1) ids[n++] = _tokens[k].id;
        }
        if (n == 0 || (seed >> 200) % 2 == 1) ids[n++] = 999;
        assembly ("memory-safe") {
            mstore(ids, n)
        }
    }

    function _hashPair(bytes32 a, bytes32 b) internal pure returns (bytes32) {
        return a < b ? keccak256(abi.encode(a, b)) : keccak256(abi.encode(b, a));
    }

    /// The levels of a sorted-pair Merkle tree of `keccak256(abi.encode(id))` leaves (an odd node moves up).
    function _levels(uint256[] memory ids) internal pure returns (bytes32[][] memory levels) {
        uint256 depth = 1;
        for (uint256 w = ids.length; w > 1; w = (w + 1) / 2) depth++;
        levels = new bytes32[][](depth);
        levels[0] = new bytes32[](ids.length);
        for (uint256 i; i < ids.length; ++i) levels[0][i] = keccak256(abi.encode(ids[i]));
        for (uint256 l = 1; l < depth; ++l) {
            bytes32[] memory below = levels[l - 1];
            bytes32[] memory level = new bytes32[]((below.length + 1) / 2);
            for (uint256 j; j < level.length; ++j) {
                level[j] = 2 * j + 1 < below.length ? _hashPair(below[2 * j], below[2 * j + 1]) : below[2 * j];
            }
            levels[l] = level;
        }
    }

    function _root(uint256[] memory ids) internal pure returns (bytes32) {
        bytes32[][] memory levels = _levels(ids);
        return levels[levels.length - 1][0];
    }

    function _proof(uint256[] memory ids, uint256 index) internal pure returns (bytes32[] memory proof) {
        bytes32[][] memory levels = _levels(ids);
        proof = new bytes32[](levels.length);
        uint256 n;
        for (uint256 l; l + 1 < levels.length; ++l) {
            if ((index ^ 1) < levels[l].length) proof[n++] = levels[l][index ^ 1];
            index >>= 1;
        }
        assembly ("memory-safe") {
            mstore(proof, n)
        }
    }
}

contract EaselMarketInvariantTest is Base {
    MarketHandler internal handler;
    address internal artist2 = address(0xA2);

    function setUp() public override {
        super.setUp();
        vm.startPrank(admin);
        marketAdmin.setFees(1_000, 250);
        marketAdmin.setArtistVerified(artist2, true);
        vm.stopPrank();
        TestActor rejecter = new TestActor();
        rejecter.setMode(TestActor.Mode.Reject);
        EaselCollection lazy = createLazy(1_000);
        address keyed1 = vm.addr(0xC1);
        address keyed2 = vm.addr(0xC2);
        handler = new MarketHandler(market, admin, [artist, artist2, keyed1, keyed2, address(rejecter)], lazy);
        handler.setKey(keyed1, 0xC1);
        handler.setKey(keyed2, 0xC2);
        // The keyed actors start with the plain tokens, so that they sign listings from the first call.
        mint(1);
        mint(2);
        vm.startPrank(artist);
        collection.transferFrom(artist, keyed1, 1);
        collection.transferFrom(artist, keyed2, 2);
        vm.stopPrank();

        // Standard collection: two plain tokens (above) and one split with the ETH-rejecting actor.
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 60);
        split[1] = Collaborator(address(rejecter), 40);
        vm.prank(artist);
        collection.mintNFT(1_500, cid(3), split);
        for (uint256 id = 1; id <= 3; ++id) handler.addToken(address(collection), id);
        // Default collection: one token each from two artists.
        vm.prank(artist);
        defaultCollection.mintNFT(500, cid(11), none());
        vm.prank(artist2);
        defaultCollection.mintNFT(500, cid(12), none());
        handler.addToken(address(defaultCollection), 1);
        handler.addToken(address(defaultCollection), 2);
        handler.closeSetUp();
    }

    function signedVoucherFor(EaselCollection lazy, uint256 tokenId, uint256 price, address buyer_)
        external
        view
        returns (LazyMintVoucher memory)
    {
        return signedVoucher(lazy, tokenId, price, buyer_);
    }

    // ------------------------------------------------------------ the handler's new actions reach their success path

    /// A bulk tree signed by the handler fills (its tree and proofs are the market's).
    function test_handlerBulkListingFills() public {
        // keyed1 (actor 2) owns the standard collection's token 1; a height-1 tree, fees up to 20% accepted.
        handler.signBulk(2, 0, 0, 1);
        handler.fillBulk(0, 0);
        assertEq(handler.ghostBulkFills(), 1, "bulk fill");
        assertEq(collection.ownerOf(1), artist, "bought");
        ethIsConserved();
        everySalePaysExactlyItsPrice();
    }

    /// A cart buys an on-chain listing and a bulk leaf, refunding the ETH sent above their prices.
    function test_handlerCartBuys() public {
        handler.list(1, 1 ether); // keyed2 lists the standard collection's token 2
        handler.signBulk(2, 0, 0, 1); // keyed1 signs token 1 in a bulk tree
        uint256 bought;
        for (uint256 seed = 1 + (1 << 8); seed < 512 && bought < 2; seed += 4) {
            // One listed purchase and one signed (the bulk leaf), bought by artist2, 1 ETH or less sent above the
            // sum; not all or nothing.
            handler.buyCart(seed, 1, 1 + 3 * seed, false);
            bought = handler.ghostCartPurchases();
        }
        assertTrue(bought >= 2, "cart purchases");
        assertTrue(handler.ghostCartRefunds() != 0, "cart refunds");
        ethIsConserved();
        everySalePaysExactlyItsPrice();
    }

    /// A trait offer over ids 1-3 (an odd leaf count) buys two tokens with their proofs; a stranger cannot
    /// return the rest before its expiry, and can after it.
    function test_handlerCollectionOffer() public {
        // New terms (seed % 4 = 1) over a root of the standard collection's ids 1, 2, 3 (bits 0-2 of seed >> 16);
        // buyer keyed2 (513 % 5 = 3), quantity 3; expiry an hour ahead.
        handler.makeCollectionOffer(1 + (7 << 16), 1 + (2 << 8), 0, 3 + (3_600 << 8));
        assertEq(handler.collectionOfferCount(), 1, "made");
        (MarketCore.CollectionOffer memory terms, bytes32 id) = handler.collectionOfferAt(0);
        assertEq(marketAdmin.collectionOfferRemaining(id), 3, "remaining");
        assertTrue(terms.tokenRoot != 0, "trait offer");
        handler.acceptCollectionOffer(0, 0, 1 + (1 << 8)); // keyed1 sells id 1, with its proof
        handler.acceptCollectionOffer(0, 2, 1 + (1 << 8)); // artist sells id 3 (the leaf that moved up)
        assertEq(handler.ghostCollectionOfferSales(), 2, "accepted");
        assertEq(marketAdmin.collectionOfferRemaining(id), 1, "remaining after");
        handler.cancelCollectionOffer(0, 1, false); // a stranger, before the expiry
        assertEq(marketAdmin.collectionOfferRemaining(id), 1, "still live");
        handler.cancelCollectionOffer(0, 1, true); // a stranger, after a warp past the expiry
        assertEq(marketAdmin.collectionOfferRemaining(id), 0, "returned");
        ethIsConserved();
        everySalePaysExactlyItsPrice();
        offersKeepTheirTerms();
    }

    /// An item offer with an hour's expiry: an actor cannot return it while live, a stranger can once expired.
    function test_handlerExpiredOfferReturnedByStranger() public {
        handler.offer(0, 0, 1, 3 + (3_600 << 8)); // artist offers on keyed1's token 1
        assertEq(marketAdmin.getOffer(address(collection), 1).buyer, artist, "offer");
        handler.cancelOfferBy(0, 1); // artist2, while live
        assertEq(marketAdmin.getOffer(address(collection), 1).buyer, artist, "still there");
        handler.warp(2 hours);
        handler.cancelOfferBy(0, 0); // a stranger, once expired
        assertEq(marketAdmin.getOffer(address(collection), 1).buyer, address(0), "returned");
        ethIsConserved();
        offersKeepTheirTerms();
    }

    /// The handler's auction-lock attacks reach the lock: keyed1's token in an auction with a bid cannot be moved
    /// (by its owner or an operator, plain or safe), burned, approved (by its owner or the market), listed, put in
    /// a second auction or sold to an offer; its seller takes the market's approval back and the settlement still
    /// delivers it to the winner, who moves it freely.
    function test_handlerAuctionLock() public {
        address keyed1 = vm.addr(0xC1);
        address c = address(collection);
        handler.auction(0, 0, true); // keyed1 puts the standard collection's token 1 in a 0.1 ETH reserve auction
        assertEq(marketAdmin.getAuction(c, 1).seller, keyed1, "auction");
        handler.bid(0, 0, 0); // the artist bids the reserve
        assertEq(marketAdmin.getAuction(c, 1).bidder, artist, "bid");
        handler.offer(0, 1, 1, 3 + (3_600 << 8)); // artist2 offers on the token for an hour
        handler.transfer(0, 0); // an operator, safe transfer
        handler.transfer(0, 1 << 8); // the owner, safe transfer
        handler.transfer(0, (1 << 8) | (1 << 16)); // the owner, transferFrom
        handler.transfer(0, 1 << 16); // an operator, transferFrom
        handler.burnLocked(0, false);
        handler.burnLocked(0, true);
        handler.approveToken(0, 0); // by the market
        handler.approveToken(0, 1 << 8); // by the owner
        handler.list(0, 0);
        handler.auction(0, 0, false);
        handler.acceptOffer(0);
        assertEq(collection.ownerOf(1), keyed1, "still the seller's");
        assertEq(collection.transferCountOf(1), 2, "the set-up transfer and the lock only");
        assertEq(collection.getApproved(1), address(0), "no approval");
        assertEq(marketAdmin.getOffer(c, 1).buyer, artist2, "the offer waits");
        auctionedTokensStayLockedWithTheirSeller();
        lockRefusesEveryOtherMove();

        handler.revokeMarket(2); // keyed1 takes the market's approval back
        assertTrue(!collection.isApprovedForAll(keyed1, address(market)), "revoked");
        handler.warp(3 days);
        handler.complete(0);
        assertEq(collection.ownerOf(1), artist, "the winner has it");
        assertEq(marketAdmin.getAuction(c, 1).kind, 0, "settled");
        handler.transfer(0, (1 << 8) | (1 << 16)); // the winner moves it to keyed1 (actor 65792 % 5 = 2)
        assertEq(collection.ownerOf(1), keyed1, "moved freely");
        auctionedTokensStayLockedWithTheirSeller();
        lockRefusesEveryOtherMove();
        ethIsConserved();
        everySalePaysExactlyItsPrice();
        listingsBelongToOwners();
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// Every rule below, checked after each call of every sequence. One campaign checks them all: with the fixed
    /// seed (hardhat.config.ts), a campaign per rule would replay the very same sequences.
    function invariant_marketRules() public view {
        ethIsConserved();
        everySalePaysExactlyItsPrice();
        offersKeepTheirTerms();
        signedListingsFillOnce();
        auctionedTokensStayLockedWithTheirSeller();
        lockRefusesEveryOtherMove();
        approvedAddressesAreFlagged();
        listingsBelongToOwners();
    }

    /// The market's ETH is exactly the live bids, item offers and collection offers (expired ones included,
    /// until they are cancelled), the credited withdrawals, the payments held and the platform fees, and the
    /// fees are what an independent computation says.
    function ethIsConserved() public view {
        uint256 escrow = handler.collectionOfferEscrow();
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            escrow += marketAdmin.getOffer(c, id).amount;
            MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
            if (a.bidder != address(0)) escrow += a.amount;
        }
        assertEq(
            address(market).balance,
            escrow + marketAdmin.totalCredits() + marketAdmin.totalHeld() + handler.ghostFees(),
            "market balance"
        );
        assertEq(marketAdmin.feesAvailable(), handler.ghostFees(), "fees");
        assertEq(address(handler.lazy()).balance, handler.ghostLazyFees() + handler.lazy().totalCredits(), "lazy");
    }

    /// Every sale paid out exactly its price: what the parties and the platform gained equals what was paid.
    /// A cart makes or skips each of its purchases, sells only what it holds to its buyer, and charges the buyer
    /// exactly the prices of what was bought (the rest refunded).
    function everySalePaysExactlyItsPrice() public view {
        assertEq(handler.ghostPayoutMismatches(), 0, "sales whose payout differs from the price");
        assertEq(handler.ghostCartMismatches(), 0, "carts whose outcome differs from their purchases");
    }

    /// No collection offer buys more tokens than its quantity: the market's remaining count is the handler's, and
    /// what was added = bought + cancelled + remaining. Offers keep their terms: nothing accepted after its
    /// expiry or outside its root, no stranger returns a live offer, refunds are the escrow.
    function offersKeepTheirTerms() public view {
        for (uint256 i; i < handler.collectionOfferCount(); ++i) {
            (, bytes32 id) = handler.collectionOfferAt(i);
            uint256 remaining = marketAdmin.collectionOfferRemaining(id);
            assertEq(remaining, handler.ghostRemaining(id), "collection offer remaining");
            assertEq(
                handler.ghostAdded(id),
                handler.ghostBought(id) + handler.ghostCancelled(id) + remaining,
                "collection offer quantity"
            );
        }
        assertEq(handler.ghostOverfills(), 0, "collection offers that bought more than their quantity");
        assertEq(handler.ghostOfferViolations(), 0, "offers that broke their terms");
    }

    /// A signed listing is filled at most once.
    function signedListingsFillOnce() public view {
        assertEq(handler.ghostDoubleFills(), 0, "signed listings filled twice");
    }

    /// Auctions are non-custodial: every token in an auction is owned by its auction's seller, is locked (bit 94
    /// of its extra data) and has no approved address; a token in no auction is not locked (every settlement and
    /// cancel lifts the lock). The market holds no token (the handler never sends one by hand).
    function auctionedTokensStayLockedWithTheirSeller() public view {
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
            if (a.kind != 0) {
                assertEq(EaselCollection(c).ownerOf(id), a.seller, "a token in an auction is its seller's");
                assertTrue(isLocked(c, id), "a token in an auction is locked");
                assertEq(EaselCollection(c).getApproved(id), address(0), "approval on a token in an auction");
            } else {
                assertTrue(!isLocked(c, id), "a token in no auction is locked");
            }
        }
        assertEq(collection.balanceOf(address(market)), 0, "the market holds a token (standard)");
        assertEq(defaultCollection.balanceOf(address(market)), 0, "the market holds a token (default)");
        assertEq(handler.lazy().balanceOf(address(market)), 0, "the market holds a token (lazy)");
    }

    /// While a token is in an auction nothing but its settlement moves it: no transfer (by its owner or an
    /// operator), approval, burn, listing, sale (buy now, signed, bulk or cart fill, item or collection offer) or
    /// second auction went through. Out of an auction it moves freely, and an auction that ended with a winner is
    /// settled whatever the seller did with the market's approval.
    function lockRefusesEveryOtherMove() public view {
        assertEq(handler.ghostLockBreaches(), 0, "a token in an auction was moved, approved, burned, listed or sold");
        assertEq(handler.ghostFreeMovesRefused(), 0, "a token in no auction could not be moved by its owner");
        assertEq(handler.ghostSettlementsRefused(), 0, "an auction with a winner could not be settled");
    }

    /// Every approved address is flagged in the token's ownership slot (bit 93 of the extra data), or a transfer
    /// would skip it: it would survive the transfer and could still burn the token. And every approval works.
    function approvedAddressesAreFlagged() public view {
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            if (EaselCollection(c).getApproved(id) == address(0)) continue;
            assertTrue((ownershipWord(c, id) >> (160 + 93)) & 1 == 1, "approved address without its bit");
        }
        assertEq(handler.ghostApprovalsRefused(), 0, "an approved address could not move its token");
    }

    /// A live listing always belongs to the token's current owner; a token in an auction stays with its seller
    /// and has no live listing.
    function listingsBelongToOwners() public view {
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            (address seller,,) = marketAdmin.getSellOrder(c, id);
            MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
            if (a.kind != 0) {
                assertEq(EaselCollection(c).ownerOf(id), a.seller, "a token in an auction stays with its seller");
                assertEq(seller, address(0), "listed while in auction");
            } else if (seller != address(0)) {
                assertEq(seller, EaselCollection(c).ownerOf(id), "listing of a past owner");
            }
        }
    }
}

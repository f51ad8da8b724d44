// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {EaselCredits} from "../../contracts/libraries/EaselPayments.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {EaselRoyaltySplitter} from "../../contracts/EaselRoyaltySplitter.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Collaborator, LazyCollectionVoucher, LazyMintVoucher} from "../../contracts/interfaces/IEaselTypes.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @dev A collaborator whose `receive` calls the splitter's `distribute` once more (the v3 review's L-3): before
/// the guard, the inner call spent the balance the outer one was paying out, so every distribution reverted.
contract HostileCollaborator {
    EaselRoyaltySplitter public splitter;
    bool private transient _entered;

    function target(EaselRoyaltySplitter splitter_) external {
        splitter = splitter_;
    }

    receive() external payable {
        if (_entered || address(splitter) == address(0)) return;
        _entered = true;
        splitter.distribute();
    }
}

/// @dev An ERC-20 that refuses transfers to the accounts it blocks (as USDC does), or answers `false` for them.
contract BlockingToken is ERC20("Blocking Dollar", "BUSD") {
    mapping(address account => uint8 how) public blocked;

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @dev Takes `amount` from `account` as a negative rebase or a sender's fee would.
    function shrink(address account, uint256 amount) external {
        _burn(account, amount);
    }

    /// @dev 0 open, 1 reverts, 2 answers false.
    function setBlocked(address account, uint8 how) external {
        blocked[account] = how;
    }

    function transfer(address to, uint256 amount) public override returns (bool) {
        if (blocked[to] == 1) revert("blocked");
        if (blocked[to] == 2) return false;
        return super.transfer(to, amount);
    }
}

/// @dev The moderation gaps, each attacked: a banned creator or collaborator paid on resales, offers and auctions;
/// a blocked id lazily minted; banned or unverified users creating collections (also while locked) and selling
/// lazy mints; royalties lost when sent with the 2,300-gas stipend; a voucher nonce that runs out; the last admin
/// leaving.
contract EaselModerationTest is Base {
    event PaymentHeld(address indexed account, uint256 amount);
    event HeldPaymentReleased(address indexed account, uint256 amount);
    event HeldPaymentForfeited(address indexed account, uint256 amount);
    event ShareCredited(address indexed token, address indexed account, uint256 amount);
    event CreditWithdrawn(address indexed token, address indexed account, address indexed to, uint256 amount);

    address internal c;

    function setUp() public override {
        super.setUp();
        c = address(collection);
    }

    /// Token 1 (10% royalty) bought by `buyer` from the artist, approved for resale.
    function soldToBuyer() internal returns (uint256 id) {
        id = mintApproved(1);
        vm.prank(artist);
        market.setSellOrder(c, id, 1 ether);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, id);
        vm.prank(buyer);
        collection.setApprovalForAll(address(market), true);
    }

    function ban(address who, bool banned) internal {
        vm.prank(admin);
        marketAdmin.setBanned(who, banned);
    }

    // ------------------------------------------------------------ 1. a banned creator is not paid

    function test_bannedCreator_royaltyHeldOnResale_thenReleased() public {
        uint256 id = soldToBuyer();
        ban(artist, true);
        vm.prank(buyer);
        market.setSellOrder(c, id, 2 ether);
        uint256 artistBefore = artist.balance;
        uint256 buyerBefore = buyer.balance;
        vm.expectEmit();
        emit PaymentHeld(artist, 0.2 ether);
        vm.prank(other);
        market.buyNow{value: 2 ether}(c, id);
        assertEq(artist.balance, artistBefore, "the banned creator received nothing");
        assertEq(buyer.balance - buyerBefore, 1.8 ether, "the innocent seller is paid");
        assertEq(marketAdmin.heldOf(artist), 0.2 ether, "royalty held");
        assertEq(marketAdmin.totalHeld(), 0.2 ether, "total held");

        // Only an operator decides; the banned creator cannot withdraw it as a credit.
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, artist, keccak256("OPERATOR_ROLE")
            )
        );
        vm.prank(artist);
        marketAdmin.releaseHeld(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCredits.NothingToWithdraw.selector, artist));
        vm.prank(artist);
        marketAdmin.withdraw();

        ban(artist, false);
        vm.expectEmit();
        emit HeldPaymentReleased(artist, 0.2 ether);
        vm.prank(admin);
        marketAdmin.releaseHeld(artist);
        assertEq(artist.balance - artistBefore, 0.2 ether, "released to the creator");
        assertEq(marketAdmin.heldOf(artist), 0, "nothing held");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NothingHeld.selector, artist));
        vm.prank(admin);
        marketAdmin.releaseHeld(artist);
    }

    function test_bannedCreator_royaltyHeldOnAcceptedOffer_thenForfeited() public {
        uint256 id = soldToBuyer();
        vm.prank(other);
        market.makeOffer{value: 1 ether}(c, id, 1 ether, block.timestamp + 7 days);
        ban(artist, true);
        uint256 artistBefore = artist.balance;
        uint256 fees = marketAdmin.feesAvailable();
        vm.prank(buyer);
        market.acceptOffer(c, id, 1 ether);
        assertEq(artist.balance, artistBefore, "nothing to the banned creator");
        assertEq(marketAdmin.heldOf(artist), 0.1 ether, "royalty held");
        vm.expectEmit();
        emit HeldPaymentForfeited(artist, 0.1 ether);
        vm.prank(admin);
        marketAdmin.forfeitHeld(artist);
        assertEq(marketAdmin.feesAvailable() - fees, 0.1 ether, "forfeited to the platform");
        assertEq(marketAdmin.totalHeld(), 0, "nothing held");
        assertEq(address(market).balance, marketAdmin.feesAvailable() + marketAdmin.totalCredits(), "conserved");
    }

    function test_bannedCreator_royaltyHeldOnAuction() public {
        uint256 id = soldToBuyer();
        vm.prank(buyer);
        market.setReserveAuction(c, id, 1 ether);
        vm.prank(bidder);
        market.placeBid{value: 1 ether}(c, id, 1 ether);
        ban(artist, true);
        vm.warp(block.timestamp + 3 days + 1);
        market.completeAuction(c, id);
        assertEq(marketAdmin.heldOf(artist), 0.1 ether, "royalty held");
    }

    function test_bannedCollaborator_shareHeld_othersPaid() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 60);
        split[1] = Collaborator(other, 40);
        vm.prank(artist);
        uint256 id = collection.mintNFT(1_000, cid(1), split);
        vm.prank(artist);
        collection.setApprovalForAll(address(market), true);
        vm.prank(artist);
        market.setSellOrder(c, id, 1 ether);
        ban(other, true);
        uint256 artistBefore = artist.balance;
        uint256 otherBefore = other.balance;
        // A primary sale: the creator sells, the collaborators share the proceeds (0.9 ETH).
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, id);
        assertEq(other.balance, otherBefore, "the banned collaborator received nothing");
        assertEq(marketAdmin.heldOf(other), 0.36 ether, "40% held");
        assertEq(artist.balance - artistBefore, 0.54 ether, "60% to the creator");
    }

    // ------------------------------------------------------------ 2. a blocked id is not lazily minted

    function test_blockedIdCannotBeLazilyMinted() public {
        EaselCollection lazy = createLazy(10);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(address(lazy), 5, true);
        LazyMintVoucher memory v = signedVoucher(lazy, 5, 1 ether, buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, address(lazy), 5));
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        // Another id mints; once unblocked, the id mints too.
        LazyMintVoucher memory v6 = signedVoucher(lazy, 6, 1 ether, buyer);
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v6);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(address(lazy), 5, false);
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(lazy.ownerOf(5), buyer, "minted once unblocked");
        // Blocking a minted id leaves the token as it is (the market's flag refuses its trades).
        vm.prank(admin);
        marketAdmin.setTokenBlocked(address(lazy), 5, true);
        assertEq(lazy.transferCountOf(5), 0, "token untouched");
        assertTrue(lazy.isRegistered(5), "still registered");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, address(lazy), 5));
        vm.prank(buyer);
        market.setSellOrder(address(lazy), 5, 1 ether);
    }

    function test_setTokenBlocked_collectionOnlyFromMarket() public {
        EaselCollection lazy = createLazy(10);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, address(this)));
        lazy.setTokenBlocked(1, true);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, address(this)));
        lazy.voidListings(1);
    }

    // ------------------------------------------------------------ 3. creating collections and lazy mints

    function test_createCollection_followsMintRules() public {
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotVerifiedArtist.selector, other));
        vm.prank(other);
        factory.createCollection("Unverified", "U", "x");
        ban(artist, true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        vm.prank(artist);
        factory.createCollection("Banned Art", "B", "x");
        LazyCollectionVoucher memory v =
            signCollectionVoucher(lazyCollectionVoucher(artist, 10, block.timestamp + 1 hours), SIGNER_KEY, address(factory));
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        vm.prank(artist);
        factory.createLazyCollection(v);
        ban(artist, false);
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        vm.prank(artist);
        factory.createCollection("Locked Art", "L", "x");
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        vm.prank(artist);
        factory.createLazyCollection(v);
        vm.prank(admin);
        marketAdmin.setMarketLocked(false);
        vm.prank(artist);
        factory.createLazyCollection(v);
    }

    function test_lazyMint_requiresVerifiedCreator() public {
        EaselCollection lazy = createLazy(10);
        vm.prank(admin);
        marketAdmin.setArtistVerified(artist, false);
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotVerifiedArtist.selector, artist));
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
    }

    function test_lazyMint_bannedCollaboratorRefused() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = mintVoucher(lazy, 1, 1 ether);
        v.collaborators = new Collaborator[](2);
        v.collaborators[0] = Collaborator(artist, 50);
        v.collaborators[1] = Collaborator(other, 50);
        v = signMintVoucher(v, SIGNER_KEY, address(lazy), buyer);
        ban(other, true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, other));
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        ban(other, false);
        uint256 before = other.balance;
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(other.balance - before, 0.45 ether, "paid once unbanned");
    }

    // ------------------------------------------------------------ 4. royalties sent with 2,300 gas

    function test_splitter_acceptsStipendPayments() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 50);
        split[1] = Collaborator(other, 50);
        vm.prank(artist);
        uint256 id = collection.mintNFT(1_000, cid(1), split);
        (address receiver,) = collection.royaltyInfo(id, 1 ether);
        (address[] memory accounts, uint256[] memory shares) = collection.collaboratorsOf(id);
        assertEq(factory.createRoyaltySplitter(accounts, shares), receiver, "created where predicted");
        vm.deal(address(this), 1 ether);
        // `transfer` forwards exactly the 2,300-gas stipend.
        payable(receiver).transfer(0.1 ether);
        (bool ok,) = receiver.call{value: 0.1 ether, gas: 2_300}("");
        assertTrue(ok, "a 2,300-gas call with value");
        assertEq(receiver.balance, 0.2 ether, "received");
        (address[] memory recipients,) = EaselRoyaltySplitter(payable(receiver)).split();
        assertEq(recipients[1], other, "its split is readable through the proxy");
        uint256 before = other.balance;
        EaselRoyaltySplitter(payable(receiver)).distribute();
        assertEq(other.balance - before, 0.1 ether, "half to the collaborator");
    }

    // ------------------------------------------------------------ 5. voucher nonce

    function test_voucherNonce_revokesPast65535() public {
        EaselCollection lazy = createLazy(10);
        // The collection's state slot (after EaselCredits' two): owner, kind, supply, nonce (bits 200-247),
        // blocked. Set the nonce where the 16-bit field used to stop.
        bytes32 slot = bytes32(uint256(2));
        uint256 word = uint256(vm.load(address(lazy), slot));
        (,,, uint256 nonce) = lazy.collectionInfo();
        assertEq(nonce, 0, "fresh");
        word |= uint256(type(uint16).max) << 200;
        vm.store(address(lazy), slot, bytes32(word));
        (,,, nonce) = lazy.collectionInfo();
        assertEq(nonce, 65_535, "the old limit");
        vm.prank(artist);
        lazy.revokeVouchers();
        (, uint256 maxSupply,, uint256 next) = lazy.collectionInfo();
        assertEq(next, 65_536, "revoked once more");
        assertEq(maxSupply, 10, "supply untouched");
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);
        assertEq(v.nonce, 65_536, "signed with the wide nonce");
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(lazy.ownerOf(1), buyer, "a voucher with the wide nonce mints");
    }

    // ------------------------------------------------------------ 6. the last admin stays

    function test_lastAdminCannotLeave() public {
        bytes32 adminRole = marketAdmin.DEFAULT_ADMIN_ROLE();
        vm.expectRevert(MarketCore.LastAdmin.selector);
        vm.prank(admin);
        marketAdmin.renounceRole(adminRole, admin);
        vm.expectRevert(MarketCore.LastAdmin.selector);
        vm.prank(admin);
        marketAdmin.revokeRole(adminRole, admin);
        // With a second admin, one may leave; then the other is the last.
        vm.prank(admin);
        marketAdmin.grantRole(adminRole, other);
        vm.prank(admin);
        marketAdmin.grantRole(adminRole, other);
        vm.prank(admin);
        marketAdmin.renounceRole(adminRole, admin);
        assertTrue(!marketAdmin.hasRole(adminRole, admin), "left");
        vm.expectRevert(MarketCore.LastAdmin.selector);
        vm.prank(other);
        marketAdmin.renounceRole(adminRole, other);
        // Other roles are not counted.
        bytes32 operatorRole = marketAdmin.OPERATOR_ROLE();
        vm.prank(other);
        marketAdmin.revokeRole(operatorRole, admin);
        assertTrue(marketAdmin.hasRole(adminRole, other), "still an admin");
    }

    // ------------------------------------------------------------ the v3 review (issue 50 §2), attacked

    /// The royalty splitter of a token the artist mints with `split`, created.
    function splitterOf(Collaborator[] memory split) internal returns (EaselRoyaltySplitter) {
        vm.prank(artist);
        uint256 id = collection.mintNFT(1_000, cid(1), split);
        (address[] memory accounts, uint256[] memory shares) = collection.collaboratorsOf(id);
        return EaselRoyaltySplitter(payable(factory.createRoyaltySplitter(accounts, shares)));
    }

    /// L-3: a collaborator re-entering `distribute` from its `receive` made every distribution revert, locking
    /// the splitter's ETH for good. The re-entry is refused and everyone is paid.
    function test_L3_reenteringCollaboratorCannotLockTheSplitter() public {
        HostileCollaborator hostile = new HostileCollaborator();
        Collaborator[] memory split = new Collaborator[](3);
        split[0] = Collaborator(artist, 50);
        split[1] = Collaborator(address(hostile), 30);
        split[2] = Collaborator(other, 20);
        EaselRoyaltySplitter splitter = splitterOf(split);
        hostile.target(splitter);
        vm.deal(address(splitter), 1 ether);
        uint256 a = artist.balance;
        uint256 o = other.balance;
        splitter.distribute();
        assertEq(artist.balance - a, 0.5 ether, "artist 50%");
        assertEq(address(hostile).balance, 0.3 ether, "the hostile collaborator gets its share, once");
        assertEq(other.balance - o, 0.2 ether, "other 20%");
        assertEq(address(splitter).balance, 0, "nothing locked");
    }

    /// L-3 for tokens: a recipient the token refuses (it reverts, or answers false) kept every other
    /// collaborator from being paid. Its share is now its credit, withdrawn to any address.
    function test_L3_refusedTokenShareIsCredited() public {
        Collaborator[] memory split = new Collaborator[](3);
        split[0] = Collaborator(artist, 50);
        split[1] = Collaborator(other, 30);
        split[2] = Collaborator(bidder, 20);
        EaselRoyaltySplitter splitter = splitterOf(split);
        BlockingToken token = new BlockingToken();
        token.setBlocked(other, 1);
        token.setBlocked(bidder, 2);
        token.mint(address(splitter), 100 ether);
        vm.expectEmit();
        emit ShareCredited(address(token), other, 30 ether);
        splitter.distributeToken(address(token));
        assertEq(token.balanceOf(artist), 50 ether, "the others are paid");
        assertEq(splitter.creditOf(address(token), other), 30 ether, "reverting transfer: credited");
        assertEq(splitter.creditOf(address(token), bidder), 20 ether, "false answer: credited");
        assertEq(splitter.totalCredits(address(token)), 50 ether, "credits");
        // Credits are not distributed again; new royalties are.
        token.mint(address(splitter), 10 ether);
        splitter.distributeToken(address(token));
        assertEq(token.balanceOf(artist), 55 ether, "only the new royalties");
        assertEq(splitter.creditOf(address(token), other), 33 ether, "credited again");
        // Nothing new: nothing to pay, nothing credited.
        splitter.distributeToken(address(token));
        assertEq(token.balanceOf(artist), 55 ether, "nothing new");
        // The refused recipient withdraws to an address the token accepts.
        vm.expectEmit();
        emit CreditWithdrawn(address(token), other, buyer, 33 ether);
        vm.prank(other);
        splitter.withdrawToken(address(token), buyer);
        assertEq(token.balanceOf(buyer), 33 ether, "withdrawn elsewhere");
        assertEq(splitter.totalCredits(address(token)), 22 ether, "the rest still owed");
        vm.expectRevert(abi.encodeWithSelector(EaselRoyaltySplitter.NothingOwed.selector, address(token), other));
        vm.prank(other);
        splitter.withdrawToken(address(token), buyer);
    }

    /// A token balance that shrinks by itself below the credits owed (a negative rebase, a sender's fee) made
    /// `distributeToken` revert on the subtraction, for good. It now has nothing new to divide until royalties
    /// cover the credits again, and then divides only what is above them.
    function test_splitterTokenBalanceBelowCreditsDividesNothing() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 50);
        split[1] = Collaborator(other, 50);
        EaselRoyaltySplitter splitter = splitterOf(split);
        BlockingToken token = new BlockingToken();
        token.setBlocked(other, 1);
        token.mint(address(splitter), 10 ether);
        splitter.distributeToken(address(token));
        assertEq(splitter.totalCredits(address(token)), 5 ether, "the refused half is credited");
        token.shrink(address(splitter), 2 ether);
        // 3 ether held against 5 owed: nothing new, and no revert.
        splitter.distributeToken(address(token));
        assertEq(token.balanceOf(artist), 5 ether, "nothing paid from the credits");
        assertEq(token.balanceOf(address(splitter)), 3 ether, "the balance stays for the credit");
        // New royalties first make up the shortfall; only what is above the credits is divided.
        token.mint(address(splitter), 4 ether);
        splitter.distributeToken(address(token));
        assertEq(token.balanceOf(artist), 6 ether, "half of the 2 ether above the credits");
        assertEq(splitter.creditOf(address(token), other), 6 ether, "the other half credited");
        assertEq(token.balanceOf(address(splitter)), 6 ether, "exactly the credits remain");
    }

    /// L-3: the splitter's entry points share one guard.
    function test_L3_splitterReentryRefused() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 50);
        split[1] = Collaborator(address(this), 50);
        _reentrySplitter = splitterOf(split);
        vm.deal(address(_reentrySplitter), 1 ether);
        _reentrySplitter.distribute();
        assertTrue(_reentryRefused, "a distribution inside a distribution is refused");
        assertEq(address(_reentrySplitter).balance, 0, "all paid");
    }

    EaselRoyaltySplitter private _reentrySplitter;
    bool private _reentryRefused;

    receive() external payable {
        if (address(_reentrySplitter) == address(0) || _reentryRefused) return;
        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _reentrySplitter.distributeToken(address(0xDEAD));
        _reentryRefused = true;
    }

    /// I-3: the last-admin guard counted an admin role granted to the zero address or to the market, neither
    /// of which can act: the real admin could then leave, and the market had no admin.
    function test_I3_adminRoleNeverToAnAccountThatCannotAct() public {
        bytes32 adminRole = marketAdmin.DEFAULT_ADMIN_ROLE();
        bytes32 operatorRole = marketAdmin.OPERATOR_ROLE();
        address[3] memory refused = [address(0), address(market), adminCode];
        for (uint256 i; i < refused.length; ++i) {
            vm.expectRevert(abi.encodeWithSelector(EaselMarketAdmin.InvalidRoleAccount.selector, refused[i]));
            vm.prank(admin);
            marketAdmin.grantRole(adminRole, refused[i]);
            vm.expectRevert(abi.encodeWithSelector(EaselMarketAdmin.InvalidRoleAccount.selector, refused[i]));
            vm.prank(admin);
            marketAdmin.grantRole(operatorRole, refused[i]);
        }
        vm.expectRevert(MarketCore.LastAdmin.selector);
        vm.prank(admin);
        marketAdmin.renounceRole(adminRole, admin);
        assertTrue(marketAdmin.hasRole(adminRole, admin), "the admin stays");
    }
}


import { Link } from "react-router";
import { ProsePage, ProseSection } from "../ui/Prose.tsx";

/** Terms of Service: every section the spec lists, written for Easel with its fees and liability cap. */
export const TERMS_SECTIONS = [
  "Welcome",
  "Terms",
  "Definitions",
  "What is Easel",
  "How to use Easel",
  "Accounts",
  "Account Security",
  "Intellectual Property",
  "Prohibited Activities",
  "No Investment Advice",
  "Site Management",
  "Modification",
  "Limitation of Liability",
  "Indemnification",
  "User Data",
  "Electronic Communications",
  "Miscellaneous",
  "Contact",
] as const;

const slug = (title: string) => title.toLowerCase().replace(/[^a-z]+/g, "-");

function Banner() {
  return (
    <div className="bg-gradient-to-br from-accent-600 to-neutral-900 px-4 py-14 text-white">
      <div className="mx-auto max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-accent-100 uppercase">Easel</p>
        <p className="mt-2 text-2xl font-bold sm:text-3xl">The rules of the gallery</p>
        <p className="mt-2 max-w-xl text-accent-50">
          Please read these terms carefully. By signing the welcome message you accept them.
        </p>
      </div>
    </div>
  );
}

export function Component() {
  const s = (title: (typeof TERMS_SECTIONS)[number]) => ({ id: slug(title), title });
  return (
    <ProsePage title="Terms of Service" banner={<Banner />} lead="Last updated: 1 January 2023.">
      <nav
        aria-label="Sections"
        className="rounded-xl border border-neutral-200 p-4 text-sm dark:border-neutral-800"
      >
        <ol className="grid list-decimal gap-1 pl-5 sm:grid-cols-2">
          {TERMS_SECTIONS.map((title) => (
            <li key={title}>
              <a className="text-accent-700 hover:underline dark:text-accent-300" href={`#${slug(title)}`}>
                {title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <ProseSection {...s("Welcome")}>
        <p>
          Welcome to Easel, a marketplace for digital art on the Ethereum network. These Terms of Service
          ("Terms") govern your use of the Easel website, its application programming interface and the Easel
          smart contracts (together, the "Service").
        </p>
      </ProseSection>
      <ProseSection {...s("Terms")}>
        <p>
          By connecting a wallet and signing the welcome message, or by otherwise using the Service, you agree
          to these Terms and to our <Link to="/privacyAndPolicy">Privacy Policy</Link>. If you do not agree,
          do not use the Service. You must be old enough to form a binding contract where you live, and you
          must not be barred from using the Service under any applicable law or sanctions list.
        </p>
      </ProseSection>
      <ProseSection {...s("Definitions")}>
        <ul>
          <li>
            <strong>NFT</strong>: a non-fungible token following the ERC-721 standard, recorded on Ethereum,
            linked to a digital artwork.
          </li>
          <li>
            <strong>Collection</strong>: a smart contract grouping NFTs. A standard collection mints each NFT
            when it is created; a lazy collection mints it when it is first bought.
          </li>
          <li>
            <strong>Primary sale</strong>: the first sale of an NFT by the artist who created it. Every later
            sale is a secondary sale.
          </li>
          <li>
            <strong>Wallet</strong>: the software you use to hold your keys and sign transactions. Easel never
            has access to it.
          </li>
          <li>
            <strong>Gas</strong>: the fee paid to the Ethereum network to process a transaction.
          </li>
        </ul>
      </ProseSection>
      <ProseSection {...s("What is Easel")}>
        <p>
          Easel is a non-custodial marketplace: it lets you display, list, buy, bid on and make offers for
          NFTs using your own wallet. Sales, bids and offers are carried out by smart contracts; Easel is not
          a party to the sale between buyer and seller, never holds your NFTs and does not hold funds on your
          behalf. The seller always sets the price.
        </p>
      </ProseSection>
      <ProseSection {...s("How to use Easel")}>
        <p>
          Browsing is open to everyone. To buy, bid, make offers, follow, favourite, report or edit a profile,
          connect a wallet and sign the welcome message. Every transaction is confirmed in your wallet, and
          once recorded on the blockchain it cannot be reversed by Easel.
        </p>
        <p>
          <strong>Fees.</strong> Creating a collection costs nothing apart from network gas. Listing an NFT is
          free apart from gas. On primary sales Easel receives a commission of 10% of the final sale price,
          deducted automatically by the market contract; royalties and payout splits set by the artist are
          paid in the same transaction. You pay the gas for the transactions you send.
        </p>
      </ProseSection>
      <ProseSection {...s("Accounts")}>
        <p>Your account is your wallet address together with the profile you choose to add to it.</p>
        <ul>
          <li>
            <strong>Standard accounts</strong> can bid, buy, make offers, resell NFTs they own and create
            collections, but cannot mint new works.
          </li>
          <li>
            <strong>Verified accounts</strong> belong to artists approved by Easel after an application. They
            can also mint. Easel may grant or withdraw verification at its discretion, for example when a
            verified account breaches these Terms.
          </li>
        </ul>
      </ProseSection>
      <ProseSection {...s("Account Security")}>
        <p>
          You alone are responsible for your wallet, its recovery phrase and every transaction signed with it.
          Easel will never ask for your recovery phrase or private key. If you believe your wallet is
          compromised, move your assets and tell us through the contact page.
        </p>
      </ProseSection>
      <ProseSection {...s("Intellectual Property")}>
        <p>
          Artists keep the copyright in their works. By listing a work you confirm that you own it or have the
          right to sell it, and you allow Easel to display it on the Service and in Easel's promotion of it.
          Buying an NFT gives you ownership of the token and a licence to display the linked work for
          personal, non-commercial purposes, unless the artist grants more. The Easel name and logo belong to
          Easel.
        </p>
      </ProseSection>
      <ProseSection {...s("Prohibited Activities")}>
        <ul>
          <li>Selling works you do not have the rights to, counterfeits or copies of others' work.</li>
          <li>Wash trading, shill bidding or any manipulation of prices or volumes.</li>
          <li>Content that is sexually graphic, hateful, abusive or illegal.</li>
          <li>Money laundering, fraud, phishing, or impersonating another person or artist.</li>
          <li>Attacking, scraping at abusive rates or otherwise disrupting the Service.</li>
        </ul>
        <p>Report anything you see through the Report option on profiles, collections and items.</p>
      </ProseSection>
      <ProseSection {...s("No Investment Advice")}>
        <p>
          Nothing on Easel is financial, investment, tax or legal advice. Prices of NFTs and of ETH can fall
          as well as rise, and an NFT may lose all of its value. Decide for yourself, and seek professional
          advice where you need it.
        </p>
      </ProseSection>
      <ProseSection {...s("Site Management")}>
        <p>
          Easel may review, hide or remove content, block collections or items, suspend accounts (a banned
          account can still cancel its listings and offers), and restrict access to the Service, in order to
          enforce these Terms and keep the Service safe. Easel cannot change the blockchain: tokens and
          transactions stay where they are.
        </p>
      </ProseSection>
      <ProseSection {...s("Modification")}>
        <p>
          We may change these Terms or the Service. We will give notice of material changes on the Service
          before they take effect; if you keep using the Service afterwards, you accept the new Terms.
        </p>
      </ProseSection>
      <ProseSection {...s("Limitation of Liability")}>
        <p>
          The Service is provided "as is". To the fullest extent the law allows, Easel is not liable for
          indirect, incidental or consequential losses, for losses caused by your wallet, by the blockchain or
          by third parties, or for lost profits. Easel's total liability to you for any claim arising from the
          Service is limited to the lesser of the amount you paid to Easel in connection with the claim or
          $100.
        </p>
      </ProseSection>
      <ProseSection {...s("Indemnification")}>
        <p>
          You agree to defend and indemnify Easel, its team and partners against claims, damages and costs
          arising from your breach of these Terms, your content or your violation of anyone's rights.
        </p>
      </ProseSection>
      <ProseSection {...s("User Data")}>
        <p>
          We process personal data as described in the <Link to="/privacyAndPolicy">Privacy Policy</Link>. You
          are responsible for the data you publish in your profile, and for keeping a copy of anything you
          want to keep.
        </p>
      </ProseSection>
      <ProseSection {...s("Electronic Communications")}>
        <p>
          By using the Service you agree to receive communications from us electronically, by email or on the
          Service, and agree that they satisfy any requirement that such communications be in writing. You
          choose which notifications you receive in your settings.
        </p>
      </ProseSection>
      <ProseSection {...s("Miscellaneous")}>
        <p>
          These Terms are the entire agreement between you and Easel about the Service. If a provision is
          found unenforceable, the rest remains in force. Our not enforcing a right is not a waiver of it. You
          may not transfer your rights under these Terms; we may transfer ours to a successor of the Service.
        </p>
      </ProseSection>
      <ProseSection {...s("Contact")}>
        <p>
          Questions about these Terms? Write to us through the <Link to="/contactUs">contact page</Link>.
        </p>
      </ProseSection>
    </ProsePage>
  );
}

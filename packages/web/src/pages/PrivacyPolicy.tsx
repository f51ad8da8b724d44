import { Link } from "react-router";
import { ProsePage, ProseSection } from "../ui/Prose.tsx";

export function Component() {
  return (
    <ProsePage
      title="Privacy Policy"
      lead="What personal data Easel collects, how we use and share it, and your choices."
    >
      <ProseSection title="What we collect">
        <ul>
          <li>Your wallet address, when you connect a wallet and sign in.</li>
          <li>
            What you put in your profile: display name, username, bio, ENS name, social links, avatar and
            banner, and your email address if you give one.
          </li>
          <li>
            What you send us: reports (with the email you enter), contact messages, artist applications and
            newsletter subscriptions.
          </li>
          <li>
            Activity on Easel such as follows and favourites, and technical data needed to run the service
            (session cookies, server logs with IP addresses, kept for a short time).
          </li>
        </ul>
        <p>
          Transactions, listings, bids and ownership are recorded on the public Ethereum blockchain. They are
          public by nature and are not controlled by Easel.
        </p>
      </ProseSection>
      <ProseSection title="How we use it">
        <ul>
          <li>To sign you in, show your profile and works, and run the marketplace.</li>
          <li>
            To send the notifications you asked for and, if you subscribed and confirmed, the newsletter.
          </li>
          <li>To review reports and applications, prevent fraud and abuse, and keep Easel secure.</li>
          <li>To answer your messages and meet our legal obligations.</li>
        </ul>
      </ProseSection>
      <ProseSection title="Who we share it with">
        <p>
          Your public profile is visible to everyone. We do not sell personal data. We share data only with
          service providers who help us run Easel (hosting, email delivery, IPFS storage) under contracts that
          limit their use of it, and with authorities when the law requires it.
        </p>
      </ProseSection>
      <ProseSection title="Your choices">
        <ul>
          <li>Edit or remove your profile details at any time in your profile settings.</li>
          <li>
            Choose which notifications you receive, and whether they are emailed, under Manage Notification.
          </li>
          <li>Unsubscribe from the newsletter with the link in any newsletter email.</li>
          <li>
            Disconnect your wallet at any time; this ends your session and clears Easel's data in your
            browser.
          </li>
          <li>
            Ask us for a copy of your data, or to delete it, through the{" "}
            <Link to="/contactUs">contact page</Link>. Data on the blockchain cannot be deleted by anyone.
          </li>
        </ul>
      </ProseSection>
      <ProseSection title="Cookies">
        <p>
          Easel uses one essential cookie to keep you signed in. It cannot be read by scripts and expires on
          its own. We use no advertising or tracking cookies.
        </p>
      </ProseSection>
    </ProsePage>
  );
}

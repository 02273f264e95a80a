// SPDX-License-Identifier: AGPL-3.0-or-later
// The games taught in Italian: the same guides and glossary as content.ts, in the
// same order and shape (test/help-i18n.test.ts compares them). Each term keeps its
// id and rule references; each section's paragraphs and lists replace the English
// ones in order, while its pointers to terms and symbols stay those of content.ts.
// The Challenges keep the names printed on their cards.
import type { ChallengeCard, GameName } from "./content";

export interface TermText {
  title: string;
  text: string[];
  players?: string;
  card?: ChallengeCard;
}

/** A section's words: its title and its paragraphs and lists, in order. */
export interface SectionText {
  title: string;
  text: (string | { list: string[] })[];
}

export interface GuideText {
  title: string;
  tagline: string;
  sections: Record<string, SectionText>;
}

const USUAL = "Distribuzione normale; la prima carta della Casa indica la Famiglia Regnante.";
const MOST = "La parte con più prese segna 1; in caso di parità, la parte che ha la Mangia-Cake.";

export const TERMS_IT: Record<string, TermText> = {
  // ---- La Casa: the 16 Challenges ----
  "challenge:anarchy": {
    title: "Anarchy",
    players: "2 e 4 giocatori",
    text: ["In questo giro nessuno è obbligato a rispondere alla famiglia di mano."],
    card: {
      setup: USUAL,
      changes: "Puoi giocare qualsiasi carta in qualsiasi momento: rispondere alla famiglia di mano non è obbligatorio.",
      scoring: "La parte con più prese segna 1 (la parità va alla parte che ha la Mangia-Cake).",
    },
  },
  "challenge:bandits": {
    title: "Bandits",
    players: "2 e 4 giocatori",
    text: ["Chi ha giocato un Bruto (un 1 o un 2) può rubare dalla presa appena conclusa."],
    card: {
      setup: USUAL,
      changes:
        "Quando si sa chi vince la presa, ogni giocatore che vi ha messo un 1 o un 2 (dall'ultimo al primo) può prendere in mano una carta scoperta della presa che non sia un 1 o un 2, e deve poi mettere una sua carta qualsiasi coperta nella presa. Il vincitore cattura la presa così com'è dopo questi scambi.",
      scoring: MOST,
    },
  },
  "challenge:betrayal": {
    title: "Betrayal",
    players: "2 e 4 giocatori",
    text: ["Ogni giocatore riceve un 1 segreto: non deve catturare la sua famiglia."],
    card: {
      setup:
        "I quattro 1 vengono tolti; ogni giocatore ne riceve uno come carta di riferimento privata (in due, gli altri due restano fuori gioco). Non c'è Famiglia Regnante e apre il mazziere.",
      changes:
        "Una presa che vinci e che contiene una carta della tua famiglia di riferimento non conta per te (la catturi comunque). Gli 1 non si giocano mai.",
      scoring: "La parte con più prese valide segna 1; la parità va alla parte che ha la Mangia-Cake.",
    },
  },
  "challenge:bruto": {
    title: "Bruto",
    players: "4 giocatori",
    text: ["Un 1 o un 2 giocato può buttare fuori un'altra carta dalla presa."],
    card: {
      setup: USUAL,
      changes:
        "Quando giochi un 1 o un 2 (non in apertura), puoi subito eliminare un'altra carta già nella presa: di un avversario, del compagno, un altro Bruto o la Mangia-Cake. La carta eliminata esce dal gioco e non può vincere. La famiglia di mano resta quella che era.",
      scoring: MOST,
    },
  },
  "challenge:capitano": {
    title: "Capitano",
    players: "2 e 4 giocatori",
    text: ["Ogni 5 giocato incorona la sua famiglia come Famiglia Regnante."],
    card: {
      setup: "Due carte in più a testa (in quattro se ne tengono 9; in due si riceve una quinta pila del tableau). All'inizio non c'è Famiglia Regnante.",
      changes:
        "Ogni volta che si gioca un 5, la sua famiglia diventa subito la Famiglia Regnante, fino al 5 successivo. Una presa si vince con la Famiglia Regnante in vigore quando si gioca la sua ultima carta.",
      scoring: MOST,
    },
  },
  "challenge:carita": {
    title: "Carita",
    players: "2 e 4 giocatori",
    text: ["Carità: in questo giro vuoi fare meno prese possibile."],
    card: {
      setup: USUAL,
      changes: "Si gioca come al solito.",
      scoring: "La parte con meno prese segna 1; in caso di parità, la parte che ha la Mangia-Cake.",
    },
  },
  "challenge:cards_on_the_table": {
    title: "Cards on the Table",
    players: "4 giocatori",
    text: ["Dopo ogni giocata metti scoperta davanti a te una carta della mano."],
    card: {
      setup: USUAL,
      changes:
        "Subito dopo aver giocato in una presa, se hai ancora carte in mano, ne metti una scoperta davanti a te, visibile a tutti. Puoi giocare dalla mano o dalle carte scoperte, e per rispondere contano entrambe.",
      scoring: MOST,
    },
  },
  "challenge:the_club": {
    title: "The Club",
    players: "4 giocatori",
    text: ["Prima di giocare, ognuno può nascondere fino a due carte per dopo."],
    card: {
      setup:
        "Distribuzione e Famiglia Regnante normali. Poi ogni giocatore a turno, a partire da sinistra del mazziere, mette da parte coperte fino a due carte della mano.",
      changes:
        "Le carte messe da parte non sono nella tua mano: non devi rispondere con esse e non puoi giocarle. Appena la tua mano è vuota, vi ritornano.",
      scoring: MOST,
    },
  },
  "challenge:cousins": {
    title: "Cousins",
    players: "2 e 4 giocatori",
    text: ["Una seconda famiglia, i Cugini, vale subito sotto la Famiglia Regnante."],
    card: {
      setup:
        "Distribuzione e Famiglia Regnante normali; poi il giocatore alla sinistra del mazziere (dopo un'Elezione: alla sinistra di chi ha eletto) nomina un'altra famiglia come Cugini.",
      changes:
        "Vince la presa la carta più alta della Famiglia Regnante; se non ce n'è, la più alta dei Cugini; se non ce n'è, la più alta della famiglia di mano.",
      scoring: MOST,
    },
  },
  "challenge:figura": {
    title: "Figura",
    players: "2 e 4 giocatori",
    text: ["I giocatori dichiarano per avere il diritto di scegliere la Famiglia Regnante."],
    card: {
      setup:
        "Non si scopre nessuna carta della Casa. Il mazziere apre con una dichiarazione di almeno 1 presa; poi ogni giocatore a turno rilancia o passa (chi passa è fuori) finché resta un solo dichiarante.",
      changes: "Chi ha dichiarato di più nomina una famiglia qualsiasi come Famiglia Regnante e apre la prima presa.",
      scoring: "Se la parte del dichiarante vince almeno le prese dichiarate, segna 1; altrimenti nessuno segna.",
    },
  },
  "challenge:kin": {
    title: "Kin",
    players: "4 giocatori",
    text: ["Le carte dei compagni della stessa famiglia si sommano."],
    card: {
      setup: USUAL,
      changes:
        "Quando entrambi i compagni giocano nella stessa presa una carta della stessa famiglia, le due contano come una sola carta di quella famiglia che vale la loro somma. Se vince, la presa va al compagno che ha giocato la più alta delle due.",
      scoring: MOST,
    },
  },
  "challenge:mangia_cake": {
    title: "Mangia-Cake",
    players: "2 giocatori",
    text: ["Chi cattura la Mangia-Cake vince il giro all'istante."],
    card: {
      setup:
        "Ogni giocatore riceve una quinta pila del tableau. La prima carta della Casa indica la Famiglia Regnante; se è la Mangia-Cake, si ridistribuisce tutto. Una Mangia-Cake distribuita scoperta su un tableau si scambia con la carta che ha sotto.",
      changes: "Il giro si ferma appena viene catturata la presa che contiene la Mangia-Cake.",
      scoring: "Il giocatore che cattura la Mangia-Cake segna 1; nessun altro segna.",
    },
  },
  "challenge:minions": {
    title: "Minions",
    players: "2 e 4 giocatori",
    text: ["In questo giro contano le carte piccole (gli 0, gli 1 e i 2)."],
    card: {
      setup: "Due carte in più a testa. La prima carta della Casa indica la Famiglia Regnante; se è la Mangia-Cake, si ridistribuisce tutto.",
      changes: "Si gioca come al solito.",
      scoring:
        "Ogni parte conta gli 0, gli 1 e i 2 che ha catturato (la Mangia-Cake è lo 0); chi ne ha di più segna 1. In caso di parità, la parte che ha la Mangia-Cake.",
    },
  },
  "challenge:pass_the_buck": {
    title: "Pass the Buck",
    players: "4 giocatori",
    text: ["Dopo ogni giocata passi una carta al giocatore alla tua sinistra."],
    card: {
      setup: USUAL,
      changes:
        "Subito dopo aver giocato, se hai due o più carte, ne passi una al giocatore alla tua sinistra prima che giochi. Con una sola carta rimasta, la tieni. Una carta ricevuta va usata per rispondere, se si può.",
      scoring: MOST,
    },
  },
  "challenge:revenge": {
    title: "Revenge",
    players: "2 e 4 giocatori",
    text: ["In questo giro i 4 (gli Zii) sono veleno."],
    card: {
      setup: "Due carte in più a testa; la prima carta della Casa indica la Famiglia Regnante.",
      changes: "Si gioca come al solito.",
      scoring: "Ogni parte conta i 4 che ha catturato; chi ne ha di meno segna 1. In caso di parità, la parte che ha la Mangia-Cake.",
    },
  },
  "challenge:slap_down": {
    title: "Slap-Down",
    players: "4 giocatori",
    text: ["Ognuno impegna una carta coperta, poi si girano tutte insieme."],
    card: {
      setup: USUAL,
      changes:
        "Chi apre impegna una carta coperta e al tavolo viene detta la sua famiglia (sempre il vero). Gli altri tre impegnano poi una carta ciascuno, nello stesso momento e in qualsiasi ordine, rispondendo a quella famiglia se possono. Finché non sono dentro tutte e quattro si vede solo quante carte sono state impegnate; poi si scoprono tutte e si decide la presa. Una carta impegnata non si può riprendere.",
      scoring: MOST,
    },
  },
  // ---- La Casa: the 6 Solo Challenges ----
  "solo:betrayal": {
    title: "Betrayal (Solo)",
    text: ["Due 1 di riferimento: uno accanto alla Casa, uno per te. Nessuna Famiglia Regnante."],
    card: {
      setup:
        "Un 1 a caso sta scoperto come riferimento della Casa e un altro scoperto come il tuo; gli altri due tornano nel mazzo. Non c'è Famiglia Regnante e il giro ha 17 prese.",
      changes: "Una presa che contiene una carta di una delle due famiglie di riferimento non conta per nessuno.",
      scoring: "Segni 1 se hai più prese valide del Robot; in caso di parità, chi ha la Mangia-Cake.",
    },
  },
  "solo:capitano": {
    title: "Capitano (Solo)",
    text: ["Ogni 5 giocato incorona la sua famiglia; la carta della Casa resta coperta."],
    card: {
      setup: "La carta della Casa resta coperta: all'inizio non c'è Famiglia Regnante.",
      changes: "Ogni 5 giocato rende subito la sua famiglia la Famiglia Regnante, fino al 5 successivo.",
      scoring: "Segni 1 se hai più prese del Robot; in caso di parità, chi ha la Mangia-Cake.",
    },
  },
  "solo:carita": {
    title: "Carita (Solo)",
    text: ["Vuoi fare meno prese del Robot."],
    card: {
      setup: "Preparazione Solo normale; la carta della Casa indica la Famiglia Regnante.",
      changes: "Si gioca come al solito.",
      scoring: "Segni 1 se hai meno prese del Robot; in caso di parità, chi ha la Mangia-Cake.",
    },
  },
  "solo:cousins": {
    title: "Cousins (Solo)",
    text: ["Nomini una seconda famiglia che vale subito sotto la Famiglia Regnante."],
    card: {
      setup: "Preparazione Solo normale; dopo che la carta della Casa ha indicato la Famiglia Regnante, nomini un'altra famiglia come Cugini.",
      changes: "Vince la presa la carta Regnante più alta, altrimenti la più alta dei Cugini, altrimenti la più alta della famiglia di mano.",
      scoring: "Come senza Sfida: segni 1 con almeno 11 delle 18 prese.",
    },
  },
  "solo:minions": {
    title: "Minions (Solo)",
    text: ["Contano gli 0, gli 1 e i 2."],
    card: {
      setup: "Preparazione Solo normale; una Mangia-Cake nella Casa vuol dire nuova distribuzione.",
      changes: "Si gioca come al solito.",
      scoring: "Segni 1 se hai catturato più 0, 1 e 2 del Robot; in caso di parità, chi ha la Mangia-Cake.",
    },
  },
  "solo:revenge": {
    title: "Revenge (Solo)",
    text: ["I 4 sono veleno."],
    card: {
      setup: "Preparazione Solo normale; la carta della Casa indica la Famiglia Regnante.",
      changes: "Si gioca come al solito.",
      scoring: "Segni 1 se hai catturato meno 4 del Robot; in caso di parità, chi ha la Mangia-Cake.",
    },
  },
  // ---- La Casa: words of the table ----
  "la-casa:families": {
    title: "Famiglie",
    text: [
      "I quattro semi di La Casa si chiamano famiglie: Pistole ◎, Coltelli †, Maschere ☺ e Pugni ✚, ciascuna numerata da 1 a 9. Il numero è il valore della carta.",
      "Gli 1 e i 2 sono i Bruti, i 4 gli Zii (Zio o Zia), i 5 i Capitani.",
    ],
  },
  "la-casa:mangia-cake": {
    title: "Mangia-Cake",
    text: [
      "La 37ª carta ✿, che vale 0. Non ha una famiglia sua: se c'è una Famiglia Regnante conta come la carta più bassa di quella famiglia; se non c'è, non appartiene a nessuna famiglia, si può sempre giocare e vince solo quando è da sola nella presa.",
      "Decide le parità: quando due parti hanno lo stesso numero di prese, il punto va alla parte che ha catturato la Mangia-Cake.",
    ],
  },
  "la-casa:ruling-family": {
    title: "Famiglia Regnante",
    text: [
      "La famiglia di briscola del giro. Qualsiasi carta della Famiglia Regnante batte ogni carta di un'altra famiglia; vince la presa la più alta giocata.",
      "Di solito è la famiglia della carta scoperta in cima alla Casa (la Selezione). Se quella carta è la Mangia-Cake, in questo giro non c'è Famiglia Regnante. Alcune Sfide la scelgono in altro modo (Figura, Capitano, Betrayal), e l'Elezione la fa scegliere ai giocatori.",
    ],
  },
  "la-casa:lead-family": {
    title: "Famiglia di mano",
    text: [
      "La famiglia della prima carta della presa. Ognuno deve giocare una carta di quella famiglia se ce l'ha; altrimenti una carta qualsiasi. Senza carte della Famiglia Regnante nella presa, vince la carta più alta della famiglia di mano.",
    ],
  },
  "la-casa:cousins": {
    title: "Cugini",
    text: ["Una famiglia nominata nella Sfida Cousins. Sta tra la Famiglia Regnante e la famiglia di mano: batte la famiglia di mano ma non la Famiglia Regnante."],
  },
  "la-casa:casa": {
    title: "La Casa",
    text: [
      "Il mazzetto coperto che avanza dopo la distribuzione (9 carte in quattro, 5 in due). La sua prima carta si scopre per indicare la Famiglia Regnante; le altre restano nascoste e fuori gioco per tutto il giro.",
    ],
  },
  "la-casa:selection": {
    title: "Selezione",
    text: ["Si scopre la prima carta della Casa: la sua famiglia è la Famiglia Regnante del giro (nessuna se è la Mangia-Cake)."],
  },
  "la-casa:election": {
    title: "Elezione",
    text: [
      "Un'opzione del tavolo. Dopo che la carta della Casa è stata scoperta, i giocatori a turno (da sinistra del mazziere) possono eleggere la sua famiglia o passare. Chi elegge prende la carta, ne scarta una coperta e apre.",
      "Se passano tutti, la carta torna coperta e un secondo giro permette a ciascuno di eleggere un'altra famiglia qualsiasi; se si torna al mazziere, il mazziere deve scegliere.",
      "La parte che elegge deve vincere la maggioranza delle prese (4 su 7, 9 su 16) per segnare 1; se non ci riesce, l'altra parte segna 2. Una Sfida con un suo punteggio segna comunque a modo suo.",
    ],
  },
  "la-casa:tableau": {
    title: "Tableau",
    text: [
      "In due, ogni giocatore ha, oltre a una mano di 8 carte, quattro pile davanti a sé: una carta coperta sotto una scoperta. Puoi giocare le carte scoperte delle pile come se fossero in mano, e contano per rispondere. Dopo ogni presa, una pila la cui carta in cima è stata giocata scopre la carta nascosta. Nessuno conosce le carte coperte, nemmeno chi le possiede.",
    ],
  },
  "la-casa:reference": {
    title: "Carta di riferimento",
    text: ["In Betrayal, il tuo 1 segreto. Le prese che vinci con una carta della sua famiglia non contano per te."],
  },
  "la-casa:set-aside": {
    title: "Messe da parte",
    text: ["In The Club, fino a due carte tenute coperte fuori dalla mano. Tornano quando la mano è vuota."],
  },
  "la-casa:bidding": {
    title: "Dichiarazioni",
    text: ["In Figura, ogni dichiarazione è un numero di prese che la parte del dichiarante promette di vincere. Chi dichiara di più nomina la Famiglia Regnante e apre."],
  },
  "la-casa:target": {
    title: "Obiettivo",
    text: ["I punti che servono a una parte per vincere (12, salvo diversa scelta del tavolo). La partita finisce dopo il giro in cui una parte li raggiunge; vince il punteggio più alto, e in caso di parità si continua."],
  },
  "la-casa:robot": {
    title: "Il Robot",
    text: [
      "Il tuo avversario nel Solo: 18 carte in quattro colonne da 3, 4, 5 e 6, con solo l'ultima carta di ciascuna scoperta. Gioca solo carte scoperte, con regole fisse: apre con la sua carta più alta; se può rispondere, gioca la sua carta più alta della famiglia di mano quando vincerebbe, altrimenti la più bassa; se non può rispondere, la sua carta più alta della Famiglia Regnante, altrimenti la più bassa. A parità sceglie la colonna più vicina alla Casa.",
    ],
  },
  "la-casa:pile": {
    title: "Pila da pescare",
    text: ["Nel Solo hai 3 carte in mano; dopo ogni presa ne peschi una da questa pila finché dura."],
  },
  "la-casa:stock": {
    title: "Mazzo e carta scoperta",
    text: [
      "In Dominazione, le carte non distribuite formano un mazzo con la prima carta scoperta accanto. Dopo ogni presa, finché il mazzo dura, chi vince prende la carta scoperta o la prima del mazzo, l'altro giocatore riceve l'altra, e si scopre una nuova carta.",
    ],
  },
  "format:challenges": {
    title: "Formato con Sfide",
    text: ["Ogni giro scopre la carta successiva del mazzo mescolato delle Sfide (15 carte in quattro, 10 in due); il mazzo si rimescola quando è finito. Si gioca fino all'obiettivo."],
  },
  "format:classic": {
    title: "Formato classico",
    text: ["Niente Sfide: ogni giro è il gioco base. Si gioca fino all'obiettivo."],
  },
  "format:sticky": {
    title: "Formato Sticky",
    text: ["In quattro: prima di ogni distribuzione il mazziere sceglie la Sfida del giro, ognuna una volta sola finché non sono state giocate tutte."],
  },
  "format:domination": {
    title: "Dominazione",
    text: [
      "Due giocatori, niente Sfide: mani da 5, una Casa da 5 e un mazzo da cui pescare. La Famiglia Regnante la decide sempre un'Elezione. 16 prese; chi elegge segna 1 con almeno 9, altrimenti l'altro giocatore segna 2.",
    ],
  },
  "format:solo": {
    title: "Solo",
    text: ["Un giocatore contro il Robot per 6 giri, uno per ogni Sfida Solo in ordine casuale. Ogni giro vale 1 punto; con 4 punti si vince la partita."],
  },
  // ---- Casino ----
  "casino:capture": {
    title: "Cattura",
    text: [
      "Gioca una carta numerata per prendere carte del tavolo dello stesso valore: una sola carta di quel valore, più carte sciolte che sommate lo danno, o una costruzione di quel valore — quanti gruppi così vuoi, tutti insieme.",
      "Un Fante, una Regina o un Re prende esattamente una carta sciolta del suo stesso rango.",
    ],
  },
  "casino:build": {
    title: "Costruzione",
    text: [
      "Un mucchietto di carte numerate con un valore totale (da 2 a 10) e un proprietario, mostrato come B1, B2, … con il suo valore. La fai giocando una carta numerata su carte sciolte; la alzi aggiungendole una carta. Devi tenere in mano una carta del valore della costruzione per catturarla più tardi.",
      "Una costruzione si prende solo intera, con una carta di valore esattamente uguale. Il suo proprietario non può calare; la proprietà passa a chi la alza.",
    ],
  },
  "casino:trail": {
    title: "Calare",
    text: ["Metti una carta scoperta sul tavolo senza prendere nulla. Non è permesso finché possiedi una costruzione."],
  },
  "casino:question-cards": {
    title: "Carte domanda",
    text: [
      "Un'opzione del tavolo. Dopo una cattura, chi ha catturato può scegliere carte prese dal tavolo e fare a un altro giocatore la domanda di ciascuna. Le risposte vanno in chat; le domande non cambiano mai il gioco né il punteggio.",
    ],
  },
  "casino:sweep": {
    title: "Scopa",
    text: [
      "Un'opzione del tavolo. Una cattura che lascia il tavolo vuoto vale 1 punto in più (non con l'ultima carta del giro). Dopo una scopa il giocatore successivo può solo calare.",
    ],
  },
  "casino:scoring": {
    title: "Punteggio del giro",
    text: [
      "Alla fine di un giro: più carte 3 punti, più picche 1, Big Casino (10♦) 2, Little Casino (2♠) 1, ogni asso 1. Una parità per le carte o per le picche non dà punti a nessuno.",
    ],
  },
  "casino:partners": {
    title: "Compagni",
    text: ["In quattro, un'opzione: i posti 1 e 3 giocano contro 2 e 4, mettendo insieme catture e punteggio."],
  },
  "casino:target": {
    title: "Obiettivo",
    text: ["21 punti, salvo diversa scelta del tavolo. Dopo il giro in cui una parte lo raggiunge, vince il totale più alto; una parità in testa gioca un altro giro."],
  },
  // ---- Conference ----
  "conference:deck": {
    title: "Il mazzo di Loka",
    text: [
      "Quattro semi — Terra ♁, Aria ☁, Fuoco ▲, Acqua ≈ — da 14 carte ciascuno: Re, Regina, Cavaliere, Fante, dal 10 al 2, Asso (la più bassa). 21 trionfi ★ numerati da 1 a 21, e il Matto ✱.",
    ],
  },
  "conference:fool": {
    title: "Il Matto",
    text: [
      "Si può giocare a qualsiasi turno al posto della carta che dovresti giocare. Non vince mai: esce dalla presa e resta alla parte del suo proprietario. Se quella presa l'ha vinta l'altra parte, alla fine della mano la tua parte le dà una carta bassa dalle sue prese.",
    ],
  },
  "conference:card-points": {
    title: "Punti carte",
    text: [
      "Onori (trionfo 1, trionfo 21 e il Matto), Re e Assi 5; Regine 4; Cavalieri 3; Fanti 2; ogni altra carta 1. Ogni presa vinta aggiunge 1. I punti mano di una parte sono i punti delle sue carte più le sue prese.",
    ],
  },
  "conference:contract": {
    title: "Contratto",
    text: [
      "I punti mano che servono a una parte per vincere la mano: 83, la più piccola maggioranza dei 165 punti in gioco (84 con Bene e Male, su 167).",
      "La parte che lo fa segna come punti partita la differenza tra i punti mano delle due parti.",
    ],
  },
  "conference:discard": {
    title: "Lo scarto del mazziere",
    text: ["Il mazziere riceve 2 carte in più (4 con Bene e Male) e ne scarta altrettante coperte: mai un Re o un Onore, e trionfi solo quando non si può scartare altro. Lo scarto conta per la parte del mazziere."],
  },
  "conference:direction": {
    title: "Direzione",
    text: ["Da che parte gira il turno: di solito a sinistra. In Attacco e Difesa gira lontano dal compagno del mazziere, quindi può andare a destra."],
  },
  "conference:good_evil": {
    title: "Bene e Male",
    text: [
      "Una variante che aggiunge due carte, Bene ☀ e Male ☾, trionfi appena sotto il trionfo 1. Da sola in una presa, ognuna è il trionfo più basso. Giocate da due compagni nella stessa presa battono tutto; giocate da avversari, nessuna delle due può vincere.",
    ],
  },
  "conference:allegiance": {
    title: "Alleanza (nostra / vostra)",
    text: [
      "La variante Bene e Male con le dichiarazioni. La prima delle due giocata porta una dichiarazione, “nostra” o “vostra”: Bene sta per Terra e Aria, Male per Fuoco e Acqua. “Nostra” vuol dire che la parte di chi dichiara conta solo le carte di seme dei due semi della sua carta e l'altra parte solo gli altri due; “vostra” il contrario. Trionfi e Matto contano sempre.",
      "Con l'alleanza non c'è contratto: la parte con più punti mano segna la differenza.",
    ],
  },
  "conference:attack_defence": {
    title: "Attacco e Difesa",
    text: ["Una variante: il mazziere riceve il trionfo 21 e il suo compagno il trionfo 20. Il mazziere apre la prima presa e per tutta la mano il gioco gira lontano dal compagno."],
  },
  "conference:gallowglass": {
    title: "Gallowglass",
    text: [
      "Una variante: dopo lo scarto il mazziere può nominare un seme come gallowglass. Quando si apre un altro seme e tutte le tue carte di quel seme sono figure, puoi giocare invece una carta gallowglass, come se fosse del seme di mano. Le carte gallowglass non danno punti carte, e nemmeno una presa vinta da una di esse.",
    ],
  },
  "conference:hands": {
    title: "Mani",
    text: ["Una partita dura 4 mani, salvo diversa scelta del tavolo; poi vince la parte con più punti partita (in caso di parità si giocano altre mani)."],
  },
  // ---- Trophy Case ----
  "trophy-case:suits": {
    title: "Semi e colori",
    text: ["15 semi da 11 carte (da 0 a 9 e ∞), raggruppati tre a tre in cinque colori. Il simbolo nell'angolo della carta indica il seme:"],
  },
  "trophy-case:infinity": {
    title: "∞ (Infinito)",
    text: ["La carta più alta di ogni seme, sopra il 9. Vale 2 punti per chi vince la presa."],
  },
  "trophy-case:trumps": {
    title: "Trionfi",
    text: [
      "Nove carte con un nome ★ (Granola, Morte, Luce, Lumaca, Bellezza, Tempo, Grue, Aragosta, Giullare) senza seme, colore o valore. Un trionfo chiude subito la presa e chi lo gioca la vince. Puoi giocarne uno quando non hai carte del colore di mano.",
    ],
  },
  "trophy-case:led": {
    title: "Seme e colore di mano",
    text: [
      "La prima carta di una presa stabilisce il suo seme e il suo colore. Se hai carte di quel colore devi giocarne una (di uno qualsiasi dei suoi tre semi). Ogni carta del colore di mano batte ogni carta fuori colore; tra queste, un seme che entra nella presa più tardi vale più dei semi entrati prima, qualunque sia il valore.",
    ],
  },
  "trophy-case:ooc": {
    title: "Fuori colore (OoC)",
    text: ["Una carta di un altro colore, giocata da chi non ha carte del colore di mano. Le carte fuori colore valgono solo per il loro valore e perdono sempre contro quelle del colore."],
  },
  "trophy-case:fold": {
    title: "Ritirarsi",
    text: ["Invece di giocare, lasci la presa per sempre; le carte che ci hai già messo restano lì. Non puoi ritirarti finché hai una carta del seme di mano."],
  },
  "trophy-case:mud": {
    title: "Fango",
    text: ["Non è una carta: è ciò che “gioca” a ogni turno un giocatore ancora nella presa senza più carte. Vale 0, non ha seme né colore ed è più basso di ogni carta."],
  },
  "trophy-case:trick-end": {
    title: "Come finisce una presa",
    text: [
      "I turni girano e rigirano tra i giocatori ancora in gioco, non una volta sola. La presa finisce quando si gioca un trionfo (vince chi l'ha giocato), quando resta un solo giocatore (vince lui), o quando nessuno ancora in gioco ha più carte (vince la carta più alta tra le loro).",
    ],
  },
  "trophy-case:scoring": {
    title: "Punti",
    text: ["Chi vince segna tutte le carte della presa: ogni 8 e 9 un punto, ogni ∞ due, ogni 0 uno se la presa contiene un trionfo. Il primo giocatore che raggiunge l'obiettivo (30) vince subito."],
  },
  "trophy-case:redeal": {
    title: "Mani e ridistribuzioni",
    text: [
      "Mani da 14, 12 o 11 carte per 3, 4 o 5 giocatori. Quando una presa lascia qualcuno senza carte, tutte le mani si buttano e se ne distribuiscono di nuove. Chi apre con soli trionfi li mostra e tutti ricevono una nuova mano.",
    ],
  },
};

export const GUIDES_IT: Record<GameName, GuideText> = {
  "la-casa": {
    title: "La Casa",
    tagline: "Un gioco di prese tra quattro famiglie criminali, una Mangia-Cake e sedici Sfide. In 4 giocatori in due squadre, in 2 testa a testa, o da soli contro il Robot.",
    sections: {
      cards: {
        title: "Le carte",
        text: ["37 carte: quattro famiglie — Pistole ◎, Coltelli †, Maschere ☺ e Pugni ✚ — numerate da 1 a 9, e la Mangia-Cake ✿, che vale 0. Il numero di una carta è il suo valore."],
      },
      sides: {
        title: "Le parti e la distribuzione",
        text: [
          {
            list: [
              "In quattro: i compagni siedono uno di fronte all'altro (posti 1 e 3 contro 2 e 4). Ognuno riceve 7 carte; le altre 9 formano la Casa.",
              "In due: ognuno riceve una mano di 8 carte e un tableau di quattro pile; le altre 5 formano la Casa.",
              "Il mazziere cambia di un posto a sinistra a ogni giro. Il giocatore alla sinistra del mazziere apre la prima presa.",
            ],
          },
        ],
      },
      ruling: {
        title: "La Famiglia Regnante",
        text: ["All'inizio di un giro si scopre la prima carta della Casa. La sua famiglia è la Famiglia Regnante — la briscola — per tutto il giro. Se è la Mangia-Cake, non regna nessuna famiglia."],
      },
      tricks: {
        title: "Giocare una presa",
        text: [
          {
            list: [
              "Chi apre gioca una carta qualsiasi; la sua famiglia è la famiglia di mano.",
              "Andando a sinistra, ogni giocatore deve giocare una carta della famiglia di mano se ne ha; altrimenti una carta qualsiasi.",
              "Vince la carta più alta della Famiglia Regnante; se non ne è stata giocata nessuna, la più alta della famiglia di mano.",
              "Chi vince prende la presa coperta e apre la successiva. Il giro finisce quando sono state giocate tutte le carte.",
            ],
          },
        ],
      },
      scoring: {
        title: "Punteggio e vittoria",
        text: [
          "Senza una Sfida che dica altrimenti, la parte con più prese segna 1 punto. A parità di prese segna la parte che ha catturato la Mangia-Cake; se nessuno l'ha fatto, nessuno segna.",
          "La partita finisce dopo il giro in cui una parte raggiunge l'obiettivo (12 punti): vince il punteggio più alto; a parità si continua.",
        ],
      },
      challenges: {
        title: "Le 16 Sfide",
        text: ["Nel formato normale ogni giro scopre una carta Sfida che cambia il giro: la sua preparazione, il suo gioco o il suo punteggio. In quattro se ne usano 15 (non Mangia-Cake), in due 10. La carta in vigore è mostrata sul tavolo; tocca il suo nome per leggerla."],
      },
      formats: { title: "Formati", text: [] },
      election: { title: "L'Elezione (facoltativa)", text: [] },
      domination: {
        title: "Dominazione (due giocatori)",
        text: [
          {
            list: [
              "Ogni giocatore riceve 5 carte; altre 5 formano la Casa; il resto è un mazzo con la prima carta scoperta.",
              "Si scopre la prima carta della Casa e si tiene un'Elezione; chi elegge non prende quella carta, e apre.",
              "Dopo ogni presa, finché il mazzo dura, chi vince prende la carta scoperta o la prima del mazzo e l'altro giocatore riceve l'altra.",
              "16 prese: chi elegge segna 1 con almeno 9, altrimenti l'altro giocatore segna 2.",
            ],
          },
        ],
      },
      solo: {
        title: "Solo contro il Robot",
        text: [
          {
            list: [
              "Le 18 carte del Robot stanno in quattro colonne; una carta è la Casa; tu ne hai 3 e peschi da una pila di 15.",
              "Apri tu la prima presa, poi apre chi vince ogni presa. Dopo ogni presa le carte del Robot rimaste scoperte si girano e tu peschi una carta.",
              "6 giri da 18 prese, uno per ogni Sfida Solo. Senza Sfida segni 1 con 11 prese o più. Con 4 punti si vince; il Robot non segna mai.",
            ],
          },
        ],
      },
      words: { title: "Altre parole sul tavolo", text: [] },
    },
  },
  casino: {
    title: "Casino",
    tagline: "Un gioco di pesca con un mazzo da 52 carte: cattura le carte del tavolo per valore, fai costruzioni e segna carte, picche e i due Casino. Da 2 a 4 giocatori.",
    sections: {
      cards: {
        title: "Carte e distribuzione",
        text: [
          "L'Asso vale 1, le carte numerate il loro numero; Fanti, Regine e Re non hanno valore. Ogni giro usa un mazzo nuovo: 4 carte scoperte sul tavolo e 4 a ogni giocatore. Quando tutte le mani sono vuote, altre 4 a testa, finché il mazzo non finisce.",
          "A ogni turno giochi esattamente una carta della tua mano, cominciando da sinistra del mazziere.",
        ],
      },
      plays: {
        title: "Le quattro giocate",
        text: ["Alzare una costruzione: aggiungi la carta giocata a una costruzione qualsiasi (tua o di un altro) quando il nuovo totale è al massimo 10 e hai ancora in mano una carta di quel totale."],
      },
      end: {
        title: "Fine del giro e punteggio",
        text: ["Le carte rimaste sul tavolo alla fine vanno all'ultimo giocatore che ha catturato (al mazziere se nessuno l'ha fatto)."],
      },
      options: { title: "Opzioni", text: [] },
    },
  },
  conference: {
    title: "Conference",
    tagline: "Un gioco di prese a coppie per quattro con i Tarocchi di Loka: semi, 21 trionfi e il Matto, giocato per un contratto di 83 punti.",
    sections: {
      deck: {
        title: "Il mazzo e le parti",
        text: ["I compagni siedono uno accanto all'altro: posti 1 e 2 contro 3 e 4. Ogni parte ha la sua chat."],
      },
      deal: { title: "Distribuzione e scarto", text: ["Ogni giocatore riceve 19 carte."] },
      play: {
        title: "Il gioco",
        text: [
          {
            list: [
              "Apre il giocatore alla sinistra del mazziere; chi vince una presa apre la successiva. 19 prese.",
              "Rispondi al seme di mano; se non puoi, gioca un trionfo; se non ne hai, una carta qualsiasi. Quando si apre con un trionfo, gioca un trionfo se puoi. Non sei mai obbligato a superare.",
              "Vince il trionfo più alto; senza trionfi, la carta più alta del seme di mano.",
            ],
          },
        ],
      },
      scoring: { title: "Punteggio", text: [] },
      variants: { title: "Varianti", text: [] },
    },
  },
  "trophy-case": {
    title: "Trophy Case",
    tagline: "Un gioco di prese e di bluff da 3 a 5 giocatori con 174 carte: rispondi al colore, ritirati, o chiudi la presa con un trionfo.",
    sections: {
      cards: { title: "Le carte", text: [] },
      play: {
        title: "Una presa",
        text: [
          {
            list: [
              "Chi apre gioca una carta di seme qualsiasi.",
              "Al tuo turno giochi una carta o ti ritiri. Se hai una carta del colore di mano devi giocarne una; se no, una carta di seme qualsiasi o un trionfo.",
              "I turni continuano a girare finché la presa non finisce.",
            ],
          },
          "La presa successiva la apre il giocatore alla sinistra dell'ultimo vincitore.",
        ],
      },
      scoring: { title: "Punteggio", text: [] },
    },
  },
};
